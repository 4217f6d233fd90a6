import { dueDateOf, erasedLabel, requestStanding, type DataRequest, type NewDataRequest } from '@contract/clientData';
import type { Queryable } from '../db/client';
import { recordAudit, type Actor } from '../audit/record';
import { notFound } from '../lib/errors';

interface Row {
  id: number;
  kind: 'access' | 'erasure';
  client_id: number;
  first_name: string | null;
  last_name: string | null;
  erased_at: Date | string | null;
  received_at: Date | string;
  due_at: Date | string;
  note: string | null;
  logged_by: string | null;
  handled_at: Date | string | null;
  handled_by: string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();

const toRequest = (row: Row, now: Date): DataRequest => {
  const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return {
    id: Number(row.id),
    kind: row.kind,
    client_id: Number(row.client_id),
    client_label: row.erased_at ? erasedLabel(Number(row.client_id)) : name || `client #${row.client_id}`,
    received_at: iso(row.received_at),
    due_at: iso(row.due_at),
    note: row.note,
    logged_by: row.logged_by,
    handled_at: row.handled_at ? iso(row.handled_at) : null,
    handled_by: row.handled_by,
    standing: requestStanding(row, now),
  };
};

const SELECT = `SELECT r.*, c.first_name, c.last_name, c.erased_at FROM data_requests r JOIN clients c ON c.id = r.client_id`;

/** Open requests first, the soonest due first; then the handled ones, the latest handled first. */
export async function listRequests(db: Queryable, options: { openOnly: boolean }, now: Date): Promise<DataRequest[]> {
  const rows = await db.query<Row>(
    `${SELECT} ${options.openOnly ? 'WHERE r.handled_at IS NULL' : ''}
     ORDER BY r.handled_at IS NOT NULL, CASE WHEN r.handled_at IS NULL THEN r.due_at END, r.handled_at DESC, r.id DESC LIMIT 500`,
  );
  return rows.map((row) => toRequest(row, now));
}

export async function logRequest(db: Queryable, body: NewDataRequest, actor: Actor): Promise<DataRequest> {
  const [client] = await db.query<{ id: number }>('SELECT id FROM clients WHERE id = $1', [body.client_id]);
  if (!client) throw notFound(`No client with id ${body.client_id}.`);
  const received = body.received_at ? new Date(body.received_at) : actor.at;
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO data_requests (kind, client_id, received_at, due_at, note, logged_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [body.kind, body.client_id, received.toISOString(), dueDateOf(received).toISOString(), body.note?.trim() || null, actor.staff?.email ?? null],
  );
  await recordAudit(db, {
    ...actor,
    action: 'data_request.log',
    target_type: 'data_request',
    target_id: Number(row!.id),
    client_id: body.client_id,
    after: { kind: body.kind, received_at: received.toISOString() },
  });
  return (await requestById(db, Number(row!.id), actor.at))!;
}

export async function requestById(db: Queryable, id: number, now: Date): Promise<DataRequest | undefined> {
  const [row] = await db.query<Row>(`${SELECT} WHERE r.id = $1`, [id]);
  return row && toRequest(row, now);
}

export async function markHandled(db: Queryable, id: number, actor: Actor): Promise<DataRequest> {
  const rows = await db.query<{ client_id: number }>(
    'UPDATE data_requests SET handled_at = COALESCE(handled_at, $2), handled_by = COALESCE(handled_by, $3) WHERE id = $1 RETURNING client_id',
    [id, actor.at.toISOString(), actor.staff?.email ?? null],
  );
  if (!rows[0]) throw notFound(`No data request with id ${id}.`);
  await recordAudit(db, { ...actor, action: 'data_request.handled', target_type: 'data_request', target_id: id, client_id: Number(rows[0].client_id) });
  return (await requestById(db, id, actor.at))!;
}

/**
 * An export or erasure done in the console answers the client's open request of that kind (the
 * oldest), or is recorded as a request received and handled at once.
 */
export async function handleRequestOf(tx: Queryable, request: { kind: 'access' | 'erasure'; clientId: number; by: string | null; at: Date }) {
  const updated = await tx.query(
    `UPDATE data_requests SET handled_at = $3, handled_by = $4
     WHERE id = (SELECT id FROM data_requests WHERE client_id = $1 AND kind = $2 AND handled_at IS NULL ORDER BY received_at LIMIT 1)
     RETURNING id`,
    [request.clientId, request.kind, request.at.toISOString(), request.by],
  );
  if (updated.length > 0) return;
  await tx.query(`INSERT INTO data_requests (kind, client_id, received_at, due_at, logged_by, handled_at, handled_by) VALUES ($1, $2, $3, $4, $5, $3, $5)`, [
    request.kind,
    request.clientId,
    request.at.toISOString(),
    dueDateOf(request.at).toISOString(),
    request.by,
  ]);
}
