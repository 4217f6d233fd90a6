import { TIMELINE_KINDS, TIMELINE_PAGE_DEFAULT, type TimelineEntry, type TimelineKind, type TimelineResponse } from '@contract/timeline';
import type { Queryable } from '../db/client';
import { notFound } from '../lib/errors';
import { isoOrNull } from './rows';
import { clientIdExists } from './queries';
import { TIMELINE_SOURCES, timelineRows, type Source, type TimelineRow } from './timelineQueries';
import { formatTimelineCursor, parseTimelineCursor, revenueCatEvent, type TimelineCursor } from './timelineRules';

/**
 * The client's timeline: one feed from the tables that already record what
 * happened, newest first, a keyset page at a time. Each source is read through its
 * (client_id, time DESC) index, at most a page of it, and the pages are merged.
 */

/** One page of the client's timeline. 404: no such client. */
export async function clientTimeline(
  database: Queryable,
  query: { clientId: number; kinds?: TimelineKind[]; before?: string; limit?: number; now: Date },
  sources: Source[] = TIMELINE_SOURCES,
): Promise<TimelineResponse> {
  if (!(await clientIdExists(database, query.clientId))) throw notFound(`No client with id ${query.clientId}`);
  const kinds = query.kinds?.length ? query.kinds : TIMELINE_KINDS;
  const limit = query.limit ?? TIMELINE_PAGE_DEFAULT;
  const cursor: TimelineCursor | null = query.before ? parseTimelineCursor(query.before) : null;
  // $3 and $4 only when the cursor uses them: PostgreSQL refuses parameters a statement never reads.
  const params: unknown[] = [query.clientId, query.now.toISOString()];
  if (cursor) params.push(cursor.at);
  const chosen = sources.filter((source) => kinds.includes(source.kind));
  if (cursor?.src != null && cursor.id != null && chosen.some((source) => source.src === cursor.src)) params.push(cursor.id);
  if (chosen.length === 0) return { entries: [], next: null };
  const rows = await timelineRows(database, { sources: chosen, cursor, limit, params });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    entries: page.map(toEntry),
    next: rows.length > limit && last ? formatTimelineCursor({ at: last.cursor_at, src: last.src, id: last.id }) : null,
  };
}

function toEntry(row: TimelineRow): TimelineEntry {
  const event = row.src === 4 ? revenueCatEvent(row.event, row.detail) : row.event;
  return {
    id: `${row.src}-${row.id}`,
    at: new Date(row.cursor_at).toISOString(),
    kind: row.kind,
    event: event as TimelineEntry['event'],
    title: row.title ?? '',
    detail: row.detail,
    by: row.by,
    until: isoOrNull(row.until),
  };
}
