import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Segment } from '@contract/segments';
import { createAuthProvider } from '../../src/providers/authProvider';
import { createConfig } from '../../src/providers/config';
import { createReachability, isOutage, PROBE_DELAYS_MS } from '../../src/providers/serverReachability';
import { serverReachability } from '../../src/providers/serverReachability';
import { en } from '../../src/i18n/en';
import { server, signedIn, testUser } from '../support/msw';
import { renderApp } from './helpers/renderApp';

// An outage a test made ends with it: the console's reachability is one per page, as in a browser.
afterEach(() => serverReachability.answered());

/** A timer list the test runs by hand: nothing waits for real time. */
const manualTimers = () => {
  const due: { at: number; run: () => void; id: number }[] = [];
  let now = 1_000_000;
  let next = 1;
  return {
    now: () => now,
    schedule: ((run: () => void, ms: number) => {
      const id = next++;
      due.push({ at: now + ms, run, id });
      return id;
    }) as unknown as typeof setTimeout,
    cancel: ((id: number) => {
      const index = due.findIndex((timer) => timer.id === id);
      if (index >= 0) due.splice(index, 1);
    }) as unknown as typeof clearTimeout,
    /** Runs the earliest timer; returns how long after the previous moment it was due. */
    runNext: () => {
      due.sort((a, b) => a.at - b.at);
      const timer = due.shift()!;
      const waited = timer.at - now;
      now = timer.at;
      timer.run();
      return waited;
    },
  };
};

describe('the server reachability', () => {
  it('tells an outage (network error, a proxy’s 502/503/504) from our server’s own refusals', () => {
    expect(isOutage(new TypeError('Failed to fetch'))).toBe(true);
    expect(isOutage({ status: 502, body: undefined })).toBe(true);
    expect(isOutage({ status: 504, body: null })).toBe(true);
    // Our server's 503 (an outside service down) names what is wrong: the server is there.
    expect(isOutage({ status: 503, body: { message: 'Mindbody is not answering' } })).toBe(false);
    expect(isOutage({ status: 500, body: { message: 'Internal server error' } })).toBe(false);
    expect(isOutage({ status: 401, body: { message: 'Sign in' } })).toBe(false);
  });

  it('asks again with back-off while the server is away, and says it is back when it answers', async () => {
    const timers = manualTimers();
    let back = false;
    const probe = vi.fn(async () => back);
    const reachability = createReachability({ probe, ...timers });
    reachability.failed({ status: 503, body: { message: 'Mindbody is not answering' } });
    expect(reachability.get().reachable).toBe(true);

    reachability.failed(new TypeError('Failed to fetch'));
    expect(reachability.get()).toEqual({ reachable: false, nextTryAt: timers.now() + PROBE_DELAYS_MS[0]! });
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      waits.push(timers.runNext());
      await vi.waitFor(() => expect(probe).toHaveBeenCalledTimes(i + 1));
      await vi.waitFor(() => expect(reachability.get().nextTryAt).toBeGreaterThan(timers.now()));
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 15_000, 30_000, 30_000]);
    back = true;
    timers.runNext();
    await vi.waitFor(() => expect(reachability.get()).toEqual({ reachable: true, nextTryAt: null }));
  });
});

describe('signing in during an outage', () => {
  const setup = () => {
    const redirect = vi.fn<(url: string) => void>();
    const authProvider = createAuthProvider({ config: createConfig({}), redirect, page: null });
    return { authProvider, redirect };
  };

  it('keeps a session this page knows while the server cannot be reached, and signs out only on a reachable server’s no', async () => {
    server.use(signedIn());
    const { authProvider, redirect } = setup();
    await authProvider.checkAuth({});
    for (const away of [() => HttpResponse.error(), () => new HttpResponse('Bad gateway', { status: 502 }), () => new HttpResponse(null, { status: 504 })]) {
      server.use(http.get('*/api/isAuthenticated', away));
      await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
      await expect(authProvider.checkError(new TypeError('Failed to fetch'))).resolves.toBeUndefined();
    }
    expect(redirect).not.toHaveBeenCalled();
    await expect(authProvider.getIdentity!()).resolves.toMatchObject({ email: testUser.email });

    server.use(http.get('*/api/isAuthenticated', () => HttpResponse.json({ isAuthenticated: false, user: null })));
    await expect(authProvider.checkAuth({})).rejects.toBeDefined();
    expect(redirect).toHaveBeenCalledTimes(1);
  });
});

describe('a page during an outage', { timeout: 240_000 }, () => {
  it('shows a banner instead of leaving, keeps what was typed, and saves it once the server is back', async () => {
    const created: unknown[] = [];
    let down = false;
    const saved: Segment[] = [];
    server.use(
      signedIn(),
      http.all('*/api/*', () => (down ? HttpResponse.error() : undefined)),
      http.get('*/api/admin/v1/segments', () => HttpResponse.json(saved, { headers: { 'content-range': `segments */${saved.length}` } })),
      http.post('*/api/admin/v1/segments', async ({ request }) => {
        const body = (await request.json()) as Pick<Segment, 'name' | 'filter'>;
        created.push(body);
        const segment = { id: 8, count: 0, count_is_estimate: false, created_at: '2026-11-29T00:00:00Z', updated_at: '2026-11-29T00:00:00Z', ...body };
        saved.push(segment);
        return HttpResponse.json(segment);
      }),
      http.get('*/api/admin/v1/segments/:id', () => HttpResponse.json(saved[0])),
      http.get('*/api/client/v1/clients/:listId', () =>
        HttpResponse.json({ clients: [], total: 0, total_is_estimate: false, page: 1, perPage: 25, next_cursor: null }),
      ),
      http.get('*/api/admin/v1/mindbody/sync', () => HttpResponse.json({ status: 'never', site_ids: [], sandbox: true })),
    );
    const { user, redirect } = renderApp('/segments/new');
    // The whole console's first render in jsdom is slow on a busy machine.
    const name = await screen.findByRole('textbox', { name: 'Name' }, { timeout: 60_000 });
    down = true;
    await user.type(name, 'Came back');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/The server cannot be reached/, undefined, { timeout: 60_000 })).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Came back');
    expect(redirect).not.toHaveBeenCalled();

    down = false;
    await user.click(screen.getByRole('button', { name: en.app.outage.try_now }));
    await waitFor(() => expect(screen.queryByText(/The server cannot be reached/)).not.toBeInTheDocument(), { timeout: 60_000 });
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Came back');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(created).toEqual([{ name: 'Came back', filter: {} }]), { timeout: 60_000 });
    expect(redirect).not.toHaveBeenCalled();
    expect(serverReachability.get().reachable).toBe(true);
  });
});
