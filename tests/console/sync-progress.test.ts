import { describe, expect, it } from 'vitest';
import { HttpError } from 'react-admin';
import { describeSync, formatSyncDate, isSyncActive, syncPercent } from '../../src/videos/syncProgress';
import { toFormErrors } from '../../src/videos/videosData';
import { i18nProvider } from '../../src/providers/i18nProvider';
import { sync } from './videoBackend';

const say = (line: ReturnType<typeof describeSync>) => i18nProvider.translate(line.key, line.args);
const utc = (iso: string) => formatSyncDate(iso, 'UTC');

describe('Vimeo sync progress', () => {
  it('watches queued and running syncs only', () => {
    expect(isSyncActive(sync({ state: 'queued' }))).toBe(true);
    expect(isSyncActive(sync({ state: 'running' }))).toBe(true);
    expect(isSyncActive(sync({ state: 'done' }))).toBe(false);
    expect(isSyncActive(sync({ state: 'failed' }))).toBe(false);
    expect(isSyncActive(undefined)).toBe(false);
  });

  it('measures progress in pages once the total is known', () => {
    expect(syncPercent(sync({ state: 'running', pages_done: 1, pages_total: 4 }))).toBe(25);
    expect(syncPercent(sync({ state: 'running', pages_done: 0, pages_total: null }))).toBeNull();
    expect(syncPercent(sync({ state: 'running', pages_done: 5, pages_total: 4 }))).toBe(100);
  });

  it('says what a sync is doing or did', () => {
    expect(say(describeSync(undefined, utc))).toBe('Vimeo has not been synced yet.');
    expect(say(describeSync(sync({ state: 'queued' }), utc))).toBe('Vimeo sync queued…');
    expect(say(describeSync(sync({ state: 'running', pages_done: 2, pages_total: 4, videos_seen: 80, videos_added: 3, videos_updated: 1 }), utc))).toBe(
      'Vimeo sync running: 2 of 4 pages read · 80 videos · 3 added · 1 updated',
    );
    expect(say(describeSync(sync({ state: 'running', pages_done: 1, pages_total: null, videos_seen: 100, videos_added: 0, videos_updated: 0 }), utc))).toBe(
      'Vimeo sync running: page 1 read · 100 videos · 0 added · 0 updated',
    );
    const done = describeSync(sync({}), utc);
    expect(done.severity).toBe('success');
    expect(say(done)).toBe('Last Vimeo sync finished Nov 22, 2026, 12:00 PM: 151 videos · 6 added · 9 updated · 5 newly gone from Vimeo');
    const failed = describeSync(sync({ state: 'failed', error: 'Vimeo rejected the access token (HTTP 401).' }), utc);
    expect(failed.severity).toBe('error');
    expect(say(failed)).toBe('Vimeo sync failed Nov 22, 2026, 12:00 PM: Vimeo rejected the access token (HTTP 401).');
  });
});

describe('server validation errors', () => {
  it("become react-admin's per-field form errors", () => {
    const error = toFormErrors(
      new HttpError('Invalid request: body.title: is required', 400, {
        message: 'Invalid request: body.title: is required',
        errors: [{ path: 'body.title', message: 'is required' }],
      }),
    ) as HttpError;
    expect(error.status).toBe(400);
    expect(error.body.errors).toEqual({ title: 'is required' });
  });

  it('leave other failures alone', () => {
    const failure = new HttpError('Internal server error', 500, {});
    expect(toFormErrors(failure)).toBe(failure);
  });
});
