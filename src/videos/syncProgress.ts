import { dateTime, studioTimeZone } from '../common/format';
import type { VimeoSync } from '@contract/videos';

/** A sync that still needs watching: the progress panel polls while one is queued or running. */
export const isSyncActive = (sync: VimeoSync | undefined | null): boolean => sync?.state === 'queued' || sync?.state === 'running';

/** Share of pages read, 0-100; null while the total is unknown (before the first page, or Vimeo does not say). */
export const syncPercent = (sync: VimeoSync): number | null =>
  sync.pages_total ? Math.min(100, Math.round((sync.pages_done / sync.pages_total) * 100)) : null;

export interface SyncLine {
  key: string;
  args: Record<string, string | number>;
  severity: 'info' | 'success' | 'error';
}

/** What the progress panel says about a sync (translation key and its arguments). */
export function describeSync(sync: VimeoSync | undefined, formatDate: (iso: string) => string): SyncLine {
  if (!sync) return { key: 'videos.sync_status.never', args: {}, severity: 'info' };
  const counts = { page: sync.pages_done, pages: sync.pages_total ?? 0, seen: sync.videos_seen, added: sync.videos_added, updated: sync.videos_updated };
  switch (sync.state) {
    case 'queued':
      return { key: 'videos.sync_status.queued', args: {}, severity: 'info' };
    case 'running':
      return { key: sync.pages_total ? 'videos.sync_status.running' : 'videos.sync_status.running_open', args: counts, severity: 'info' };
    case 'done':
      return {
        key: 'videos.sync_status.done',
        args: { ...counts, missing: sync.videos_missing, date: formatDate(sync.finished_at ?? sync.created_at) },
        severity: 'success',
      };
    case 'failed':
      return {
        key: 'videos.sync_status.failed',
        args: { reason: sync.error ?? '', date: formatDate(sync.finished_at ?? sync.created_at) },
        severity: 'error',
      };
  }
}

/** 'Nov 22, 2026, 12:00 PM': the console's one date format (common/format.ts). */
export const formatSyncDate = (iso: string, timeZone?: string): string => dateTime(iso, timeZone ?? studioTimeZone());
