import type { PushRecord } from '@contract/clientActions';
import type { Database } from '../db/client';

/** Recorded pushes, newest first, of one client or all: one page (`range`, inclusive) and the total. */
export async function listPushes(database: Database, clientId: number | null, range: [number, number]): Promise<{ rows: PushRecord[]; total: number }> {
  const [start, end] = range;
  const rows = await database.query<Record<string, unknown>>(
    `SELECT id, client_id, sent_by, source, title, body, status, reason, results, created_at, count(*) OVER () AS total
     FROM pushes WHERE ($1::bigint IS NULL OR client_id = $1)
     ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [clientId, end - start + 1, start],
  );
  // A page past the end has no row to carry the total.
  const total =
    rows.length > 0
      ? Number(rows[0]!.total)
      : Number((await database.query<{ n: number }>('SELECT count(*) AS n FROM pushes WHERE ($1::bigint IS NULL OR client_id = $1)', [clientId]))[0]!.n);
  return {
    total,
    rows: rows.map((row) => ({
      id: Number(row.id),
      client_id: row.client_id === null ? null : Number(row.client_id),
      sent_by: String(row.sent_by),
      source: String(row.source),
      title: String(row.title),
      body: String(row.body),
      status: row.status as PushRecord['status'],
      reason: (row.reason as string | null) ?? null,
      results: Array.isArray(row.results) ? (row.results as PushRecord['results']) : [],
      created_at: new Date(row.created_at as string).toISOString(),
    })),
  };
}
