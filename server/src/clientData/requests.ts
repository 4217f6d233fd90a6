import { dueDateOf, erasedLabel, requestStanding, type DataRequest, type NewDataRequest } from '@contract/clientData';
import type { Queryable } from '../db/client';
import { recordAudit, type Actor } from '../audit/record';
import { notFound } from '../lib/errors';
import { clientExists, handleOpenRequest, insertHandledRequest, insertRequest, markRequestHandled, requestRow, requestRows, type RequestRow } from './queries';

const toRequest = (row: RequestRow, now: Date): DataRequest => {
  const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return {
    id: row.id,
    kind: row.kind,
    client_id: row.client_id,
    client_label: row.erased_at ? erasedLabel(row.client_id) : name || `client #${row.client_id}`,
    received_at: row.received_at.toISOString(),
    due_at: row.due_at.toISOString(),
    note: row.note,
    logged_by: row.logged_by,
    handled_at: row.handled_at ? row.handled_at.toISOString() : null,
    handled_by: row.handled_by,
    standing: requestStanding(row, now),
  };
};

/** Open requests first, the soonest due first; then the handled ones, the latest handled first. */
export async function listRequests(db: Queryable, options: { openOnly: boolean }, now: Date): Promise<DataRequest[]> {
  const rows = await requestRows(db, options.openOnly);
  return rows.map((row) => toRequest(row, now));
}

export async function logRequest(db: Queryable, body: NewDataRequest, actor: Actor): Promise<DataRequest> {
  if (!(await clientExists(db, body.client_id))) throw notFound(`No client with id ${body.client_id}.`);
  const received = body.received_at ? new Date(body.received_at) : actor.at;
  const id = await insertRequest(db, {
    kind: body.kind,
    clientId: body.client_id,
    receivedAt: received,
    dueAt: dueDateOf(received),
    note: body.note?.trim() || null,
    loggedBy: actor.staff?.email ?? null,
  });
  await recordAudit(db, {
    ...actor,
    action: 'data_request.log',
    target_type: 'data_request',
    target_id: id,
    client_id: body.client_id,
    after: { kind: body.kind, received_at: received.toISOString() },
  });
  return (await requestById(db, id, actor.at))!;
}

export async function requestById(db: Queryable, id: number, now: Date): Promise<DataRequest | undefined> {
  const row = await requestRow(db, id);
  return row && toRequest(row, now);
}

export async function markHandled(db: Queryable, id: number, actor: Actor): Promise<DataRequest> {
  const clientId = await markRequestHandled(db, id, actor.at, actor.staff?.email ?? null);
  if (clientId === undefined) throw notFound(`No data request with id ${id}.`);
  await recordAudit(db, { ...actor, action: 'data_request.handled', target_type: 'data_request', target_id: id, client_id: clientId });
  return (await requestById(db, id, actor.at))!;
}

/**
 * An export or erasure done in the console answers the client's open request of that kind (the
 * oldest), or is recorded as a request received and handled at once.
 */
export async function handleRequestOf(tx: Queryable, request: { kind: 'access' | 'erasure'; clientId: number; by: string | null; at: Date }) {
  if (await handleOpenRequest(tx, request)) return;
  await insertHandledRequest(tx, { ...request, dueAt: dueDateOf(request.at) });
}
