import { ClientFilter, type ClientFilter as Filter } from '@contract/clientFilter';
import { MAX_SEGMENTS, type Segment, type SegmentBody } from '@contract/segments';
import { recordAudit, type Actor } from '../audit/record';
import type { Database, Queryable } from '../db/client';
import { HttpError, notFound } from '../lib/errors';
import { countClients } from './count';
import { isUniqueViolation } from '../lib/idempotency';
import { z } from 'zod';
import { timestamp } from '../db/rows';

/** Saved segments (docs/features.md#segments): CRUD with an audit entry per change, each listed with its count. */

const SegmentRow = z.object({ id: z.number(), name: z.string(), filter: z.unknown(), created_at: timestamp, updated_at: timestamp });
type SegmentRow = z.infer<typeof SegmentRow>;
const SegmentPageRow = SegmentRow.extend({ total: z.number() });
const CountRow = z.object({ n: z.number() });
const IdRow = z.object({ id: z.number() });

/** A stored filter that no longer validates (a key removed since) selects by what still does. */
export function storedFilter(raw: unknown): Filter {
  const value = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
  const parsed = ClientFilter.safeParse(value);
  if (parsed.success) return parsed.data;
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries((value ?? {}) as Record<string, unknown>)) {
    if (key in ClientFilter.shape && ClientFilter.shape[key as keyof Filter].safeParse(item).success) kept[key] = item;
  }
  return kept as Filter;
}

const duplicate = (name: string) => new HttpError(409, `A segment named '${name}' exists already`, [{ path: 'name', message: 'is taken' }]);

async function withCount(database: Database, row: SegmentRow, now: Date): Promise<Segment> {
  const filter = storedFilter(row.filter);
  const { count, estimate } = await countClients(database, filter, now);
  return {
    id: row.id,
    name: row.name,
    filter,
    count,
    count_is_estimate: estimate,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const COLUMNS = 'id, name, filter, created_at, updated_at';

export async function listSegments(
  database: Database,
  options: { sort: ['name' | 'id' | 'created_at', 'ASC' | 'DESC']; range: [number, number]; ids?: number[] | null },
  now: Date,
): Promise<{ rows: Segment[]; total: number }> {
  const [field, order] = options.sort;
  const orderBy = field === 'name' ? `lower(name) ${order}, id ${order}` : `${field} ${order}, id ${order}`;
  const ids = options.ids ?? null;
  const rows = await database.rows(
    SegmentPageRow,
    `SELECT ${COLUMNS}, count(*) OVER () AS total FROM segments WHERE ($1::int[] IS NULL OR id = ANY($1::int[]))
     ORDER BY ${orderBy} LIMIT $2 OFFSET $3`,
    [ids, options.range[1] - options.range[0] + 1, options.range[0]],
  );
  const total = rows[0] ? rows[0].total : 0;
  return { rows: await Promise.all(rows.map((row) => withCount(database, row, now))), total };
}

async function rowOf(db: Queryable, id: number): Promise<SegmentRow> {
  const [row] = await db.rows(SegmentRow, `SELECT ${COLUMNS} FROM segments WHERE id = $1`, [id]);
  if (!row) throw notFound(`No segment with id ${id}`);
  return row;
}

export async function getSegment(database: Database, id: number, now: Date): Promise<Segment> {
  return withCount(database, await rowOf(database, id), now);
}

/** The filter of a saved segment (broadcasts and bulk actions select by it); 404 when there is none. */
export async function segmentFilter(database: Queryable, id: number): Promise<Filter> {
  return storedFilter((await rowOf(database, id)).filter);
}

export async function createSegment(database: Database, body: SegmentBody, actor: Actor): Promise<Segment> {
  const row = await database
    .transaction(async (tx) => {
      const [{ n }] = (await tx.rows(CountRow, 'SELECT count(*)::int AS n FROM segments')) as [{ n: number }];
      if (n >= MAX_SEGMENTS) throw new HttpError(409, `A studio keeps at most ${MAX_SEGMENTS} segments: delete one first`);
      const [created] = await tx.rows(
        SegmentRow,
        `INSERT INTO segments (name, filter, created_by, created_at, updated_at) VALUES ($1, $2::jsonb, $3, $4, $4) RETURNING ${COLUMNS}`,
        [body.name, JSON.stringify(body.filter), actor.staff?.email ?? null, actor.at.toISOString()],
      );
      await recordAudit(tx, {
        ...actor,
        action: 'segment.create',
        target_type: 'segment',
        target_id: created!.id,
        before: null,
        after: { name: body.name, filter: body.filter },
      });
      return created!;
    })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? duplicate(body.name) : error;
    });
  return withCount(database, row, actor.at);
}

export async function updateSegment(database: Database, id: number, body: SegmentBody, actor: Actor): Promise<Segment> {
  const row = await database
    .transaction(async (tx) => {
      const before = await rowOf(tx, id);
      const [updated] = await tx.rows(SegmentRow, `UPDATE segments SET name = $2, filter = $3::jsonb, updated_at = $4 WHERE id = $1 RETURNING ${COLUMNS}`, [
        id,
        body.name,
        JSON.stringify(body.filter),
        actor.at.toISOString(),
      ]);
      await recordAudit(tx, {
        ...actor,
        action: 'segment.update',
        target_type: 'segment',
        target_id: id,
        before: { name: before.name, filter: storedFilter(before.filter) },
        after: { name: body.name, filter: body.filter },
      });
      return updated!;
    })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? duplicate(body.name) : error;
    });
  return withCount(database, row, actor.at);
}

export async function deleteSegment(database: Database, id: number, actor: Actor): Promise<Segment> {
  const segment = await getSegment(database, id, actor.at);
  await database.transaction(async (tx) => {
    const gone = await tx.rows(IdRow, 'DELETE FROM segments WHERE id = $1 RETURNING id', [id]);
    if (gone.length === 0) throw notFound(`No segment with id ${id}`);
    await recordAudit(tx, {
      ...actor,
      action: 'segment.delete',
      target_type: 'segment',
      target_id: id,
      before: { name: segment.name, filter: segment.filter },
      after: null,
    });
  });
  return segment;
}

/** A client's device records read per client, as the push itself reads them (push/service.ts). */
const RECORDS_READ = 50;
const PushRecordRow = z.object({
  client_id: z.number(),
  firebase_token_new: z.string().nullable(),
  firebase_token_current: z.string().nullable(),
  platform: z.string().nullable(),
  is_ipad: z.boolean().nullable(),
});

/** Each client's newest device records a push may go through (reachability.ts), by client. */
export const pushRecordsOf = (database: Queryable, clientIds: readonly number[]) =>
  database.rows(
    PushRecordRow,
    `SELECT client_id, firebase_token_new, firebase_token_current, platform, is_ipad FROM (
       SELECT d.*, row_number() OVER (PARTITION BY d.client_id ORDER BY d.created_at DESC, d.id DESC) AS n
       FROM debug_records d WHERE d.client_id = ANY($1::bigint[]) AND d.used_for_push) r
     WHERE n <= ${RECORDS_READ} ORDER BY client_id, n`,
    [clientIds],
  );
