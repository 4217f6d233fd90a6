import { afterEach, describe, expect, it } from 'vitest';
import { createVimeoClient, type VimeoClientOptions } from '../../server/src/integrations/vimeo/client';
import { parseRateLimitReset } from '../../server/src/integrations/vimeo/rateLimit';
import { VimeoError, type CataloguePage } from '../../server/src/integrations/vimeo/types';
import { closestPicture, toCatalogueVideo } from '../../server/src/integrations/vimeo/wire';
import { startVimeoStandIn, vimeoPage, vimeoVideo, type StandInReply, type StandInRequest } from '../support/vimeoStandIn';

const NOW = Date.parse('2026-11-22T12:00:00Z');
let standIn: Awaited<ReturnType<typeof startVimeoStandIn>> | undefined;

afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

/** A client against the stand-in whose waits are recorded instead of slept. */
function client(url: string, sleeps: number[], options: Partial<VimeoClientOptions> = {}) {
  return createVimeoClient({
    baseUrl: url,
    token: 'test-token',
    userId: 'me',
    sleep: async (ms) => void sleeps.push(ms),
    now: () => NOW,
    ...options,
  });
}

async function collect(pages: AsyncIterable<CataloguePage>) {
  const all: CataloguePage[] = [];
  for await (const page of pages) all.push(page);
  return all;
}

const ids = (page: number) => [1, 2].map((n) => 100 + page * 10 + n);

function threePages(request: StandInRequest): StandInReply {
  const page = Number(request.query.get('page') ?? '1');
  return {
    body: vimeoPage(
      page,
      3,
      2,
      ids(page).map((id) => vimeoVideo(id, `Video ${id}`)),
      6,
    ),
  };
}

describe('Vimeo API 3.4 client', () => {
  it('reads three pages, waits out a 429 until its reset and retries a 500', async () => {
    let limited = false;
    let failed = false;
    standIn = await startVimeoStandIn((request) => {
      const page = request.query.get('page');
      if (page === '2' && !limited) {
        limited = true;
        return {
          status: 429,
          headers: { 'x-ratelimit-limit': '500', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': new Date(NOW + 30_000).toUTCString() },
          body: { error: 'Too many requests' },
        };
      }
      if (page === '3' && !failed) {
        failed = true;
        return { status: 500, body: { error: 'Something strange occurred.', developer_message: 'upstream timeout' } };
      }
      return threePages(request);
    });
    const sleeps: number[] = [];
    const pages = await collect(client(standIn.url, sleeps, { backoffMs: 1000 }).pages(new AbortController().signal));

    expect(pages.map((page) => page.page)).toEqual([1, 2, 3]);
    expect(pages.flatMap((page) => page.videos.map((video) => video.vimeo_video_id))).toEqual(['111', '112', '121', '122', '131', '132']);
    expect(pages[0]!.pagesTotal).toBe(3);
    // page 2 twice (429, then ok), page 3 twice (500, then ok)
    expect(standIn.requests.map((r) => r.query.get('page') ?? '1')).toEqual(['1', '2', '2', '3', '3']);
    expect(sleeps[0]).toBe(30_000);
    expect(sleeps[1]).toBeGreaterThanOrEqual(800);
    expect(sleeps[1]).toBeLessThanOrEqual(1200);
    expect(sleeps).toHaveLength(2);
  });

  it('sends the bearer token, the 3.4 Accept header, per_page=100 and a fields filter to /me/videos', async () => {
    standIn = await startVimeoStandIn(threePages);
    await collect(client(standIn.url, []).pages(new AbortController().signal));
    for (const request of standIn.requests) {
      expect(request.path).toBe('/me/videos');
      expect(request.headers.authorization).toBe('bearer test-token');
      expect(request.headers.accept).toBe('application/vnd.vimeo.*+json;version=3.4');
      expect(request.query.get('fields')).toContain('pictures.sizes.link');
    }
    expect(standIn.requests[0]!.query.get('per_page')).toBe('100');
  });

  it("lists a configured user's videos at /users/{id}/videos", async () => {
    standIn = await startVimeoStandIn(() => ({ body: vimeoPage(1, 1, 100, [vimeoVideo(5, 'Only')], 1, '/users/4242/videos') }));
    const pages = await collect(client(standIn.url, [], { userId: '4242' }).pages(new AbortController().signal));
    expect(standIn.requests.map((r) => r.path)).toEqual(['/users/4242/videos']);
    expect(pages[0]!.videos[0]!.title).toBe('Only');
  });

  it('pauses before the next request when X-RateLimit-Remaining reaches 0', async () => {
    standIn = await startVimeoStandIn((request) => {
      const reply = threePages(request);
      return request.query.get('page') === '2'
        ? { ...reply, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor((NOW + 12_000) / 1000)) } }
        : reply;
    });
    const sleeps: number[] = [];
    await collect(client(standIn.url, sleeps).pages(new AbortController().signal));
    expect(sleeps).toEqual([12_000]);
    expect(standIn.requests).toHaveLength(3);
  });

  it('stops after repeated 500s and says why', async () => {
    standIn = await startVimeoStandIn(() => ({ status: 503, body: { error: 'Vimeo is down', developer_message: 'maintenance' } }));
    const sleeps: number[] = [];
    const run = collect(client(standIn.url, sleeps, { maxAttempts: 3 }).pages(new AbortController().signal));
    await expect(run).rejects.toThrow(VimeoError);
    await expect(run).rejects.toThrow('Vimeo failed 3 times in a row on page 1 (last: HTTP 503: maintenance)');
    expect(standIn.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it('gives up on a request that never answers, after its retries', async () => {
    standIn = await startVimeoStandIn(() => ({ hang: true }));
    const run = collect(client(standIn.url, [], { maxAttempts: 2, timeoutMs: 150 }).pages(new AbortController().signal));
    await expect(run).rejects.toThrow('Vimeo failed 2 times in a row on page 1 (last: no answer within 0.15 s)');
  });

  it('does not retry a rejected token and names the setting to check', async () => {
    standIn = await startVimeoStandIn(() => ({ status: 401, body: { error: 'You must provide a valid authenticated access token.' } }));
    const run = collect(client(standIn.url, []).pages(new AbortController().signal));
    await expect(run).rejects.toThrow(
      /Vimeo rejected the access token \(HTTP 401: You must provide a valid authenticated access token\.\)\. Check VIMEO_ACCESS_TOKEN/,
    );
    expect(standIn.requests).toHaveLength(1);
  });

  it('gives up after 429s that keep coming', async () => {
    standIn = await startVimeoStandIn(() => ({ status: 429, headers: { 'x-ratelimit-reset': new Date(NOW + 1000).toUTCString() } }));
    const run = collect(client(standIn.url, [], { max429s: 3 }).pages(new AbortController().signal));
    await expect(run).rejects.toThrow('Vimeo kept answering 429 Too Many Requests on page 1 (3 times in a row)');
  });

  it('refuses a next-page link to another host, which would receive the token', async () => {
    standIn = await startVimeoStandIn(() => ({
      body: { ...vimeoPage(1, 2, 1, [vimeoVideo(1, 'One')], 2), paging: { next: 'https://evil.example/me/videos?page=2' } },
    }));
    const run = collect(client(standIn.url, []).pages(new AbortController().signal));
    await expect(run).rejects.toThrow("Vimeo's next-page link points to another host (evil.example)");
    expect(standIn.requests).toHaveLength(1);
  });

  it('stops on a page it cannot read instead of storing nonsense', async () => {
    standIn = await startVimeoStandIn(() => ({ body: { data: [{ uri: 'not-a-video', name: 'x' }] } }));
    await expect(collect(client(standIn.url, []).pages(new AbortController().signal))).rejects.toThrow(
      'Vimeo sent page 1 in a shape the sync cannot read (data.0.uri: must look like /videos/<id>)',
    );
  });
});

describe('Vimeo wire mapping', () => {
  it('picks the picture closest to 300 px wide', () => {
    const sizes = [100, 200, 295, 640, 1280].map((width) => ({ width, link: `w${width}` }));
    expect(closestPicture(sizes)).toBe('w295');
    expect(
      closestPicture([
        { width: 200, link: 'a' },
        { width: 400, link: 'b' },
      ]),
    ).toBe('b');
    expect(closestPicture([])).toBeNull();
  });

  it('maps a video: id from the uri, rounded duration, tags and categories merged', () => {
    const video = toCatalogueVideo({
      ...vimeoVideo(258684937, '  Sunrise Flow  ', { duration: 61.6 }),
      tags: [{ name: 'yoga' }, { name: 'Morning' }],
      categories: [{ name: 'Yoga' }, { name: 'Sports' }],
    });
    expect(video).toEqual({
      vimeo_video_id: '258684937',
      title: 'Sunrise Flow',
      duration: 62,
      thumbnail_url: 'https://i.vimeocdn.com/video/258684937_295x166',
      tags: ['Morning', 'Sports', 'yoga'],
    });
  });

  it('reads X-RateLimit-Reset as a Unix timestamp or a date string', () => {
    expect(parseRateLimitReset('1795000000', NOW)).toBe(1795000000_000);
    expect(parseRateLimitReset('Sun, 22 Nov 2026 12:00:30 GMT', NOW)).toBe(NOW + 30_000);
    expect(parseRateLimitReset('2026-11-22T12:01:00+00:00', NOW)).toBe(NOW + 60_000);
    expect(parseRateLimitReset('garbage', NOW)).toBeNull();
    expect(parseRateLimitReset(null, NOW)).toBeNull();
  });
});
