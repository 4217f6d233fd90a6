import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { openDatabase, type Database } from '../../server/src/db/client';
import { demoVideos, thumbnail } from '../../server/seed/catalogue';
import { createTestApp } from '../support/server';

describe('demo video thumbnails', () => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    app = await createTestApp(database);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('are URLs on this server, under SERVER_PREFIX, short enough for a 10,000-video list', () => {
    const [first] = demoVideos(1);
    expect(first!.thumbnail_url).toMatch(/^\/demo\/thumbnail\.svg\?t=.+&c=Warm-up&k=e4572e$/);
    expect(thumbnail('Power Yoga Flow', 'Yoga', '#17bebb', '/studio')).toBe('/studio/demo/thumbnail.svg?t=Power+Yoga+Flow&c=Yoga&k=17bebb');
    const longest = Math.max(...demoVideos(10_000).map((video) => video.thumbnail_url.length));
    expect(longest).toBeLessThan(120);
  });

  it('are drawn without a session, escaped, and cached by browsers', async () => {
    const response = await app.inject({ method: 'GET', url: thumbnail('Rock & <Roll>', 'Boxing', '#3d348b') });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers['cache-control']).toContain('immutable');
    expect(response.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(response.body).toContain('fill="#3d348b"');
    expect(response.body).toContain('Rock &amp; &lt;Roll&gt;');
    expect(response.body).toContain('>Boxing<');
  });

  it('refuse a colour that is not 6 hex digits, saying so', async () => {
    const response = await app.inject({ method: 'GET', url: '/demo/thumbnail.svg?t=x&c=y&k=red"/><script>' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/k must be a colour as 6 hex digits/);
  });
});
