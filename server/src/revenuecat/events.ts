import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import { readEvent } from '../integrations/revenuecat/events';
import { processEvent, refreshAccess, type ProcessDeps } from './process';

export const REVENUECAT_PROCESS = 'revenuecat.process';
/** Retries unmatched events, picks up stored events whose job was lost, ends lapsed cancellations. */
export const REVENUECAT_SWEEP = 'revenuecat.sweep';
const SWEEP_EVERY_MS = 10 * 60_000;
const SWEEP_BATCH = 500;

/** Stores a delivery once per event id; false when that id was already stored (a redelivery). */
export async function storeEvent(database: Database, body: Record<string, unknown>, receivedAt: Date): Promise<{ id: number; created: boolean }> {
  const facts = readEvent(body.event as Record<string, unknown>);
  const [row] = await database.query<{ id: number }>(
    `INSERT INTO revenuecat_events (event_id, type, app_user_id, original_app_user_id, aliases, email, environment, event_at, body, received_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (event_id) DO NOTHING
     RETURNING id`,
    [
      facts.id,
      facts.type,
      facts.appUserId,
      facts.originalAppUserId,
      JSON.stringify(facts.aliases),
      facts.email,
      facts.environment,
      facts.eventAt?.toISOString() ?? null,
      JSON.stringify(body),
      receivedAt.toISOString(),
    ],
  );
  if (row) return { id: Number(row.id), created: true };
  const [existing] = await database.query<{ id: number }>('SELECT id FROM revenuecat_events WHERE event_id = $1', [facts.id]);
  return { id: Number(existing!.id), created: false };
}

async function runStoredEvent(deps: ProcessDeps, id: number) {
  const [row] = await deps.database.query<{ state: string; body: Record<string, unknown> }>('SELECT state, body FROM revenuecat_events WHERE id = $1', [id]);
  if (!row || row.state === 'processed' || row.state === 'ignored') return { state: row?.state ?? 'missing' };
  const outcome = await processEvent(deps, typeof row.body === 'string' ? JSON.parse(row.body) : row.body);
  await deps.database.query(
    `UPDATE revenuecat_events SET state = $2, client_id = $3, note = $4, attempts = attempts + 1, processed_at = $5 WHERE id = $1`,
    [id, outcome.state, outcome.clientId, outcome.note, deps.clock.now().toISOString()],
  );
  return outcome;
}

/** One sweep: events still waiting (job lost, client unknown) in event order, then lapsed cancellations. */
export async function sweepEvents(deps: ProcessDeps) {
  const now = deps.clock.now();
  // The least recently tried first, so a backlog of never-matching events cannot starve the rest;
  // within the batch in event order, so a user's purchase comes before its cancellation.
  const waiting = await deps.database.query<{ id: number }>(
    `SELECT id FROM (
       SELECT id, event_at FROM revenuecat_events
       WHERE state = 'unmatched' OR (state = 'received' AND received_at < $1)
       ORDER BY processed_at NULLS FIRST, id LIMIT ${SWEEP_BATCH}
     ) batch ORDER BY event_at NULLS FIRST, id`,
    [new Date(now.getTime() - 60_000).toISOString()],
  );
  let matched = 0;
  for (const { id } of waiting) {
    const outcome = await runStoredEvent(deps, Number(id));
    if (outcome.state === 'processed') matched++;
  }
  // A cancelled purchase keeps access until its expiry; once that passes the level drops even if
  // RevenueCat's EXPIRATION never arrives (e.g. a refund).
  const lapsed = await deps.database.query<{ client_id: number }>(
    `SELECT DISTINCT p.client_id FROM purchases p JOIN clients c ON c.id = p.client_id
     WHERE p.subscription_status = 'cancelled' AND p.expires_at <= $1 AND p.expires_at > $2 AND c.purchase_access_level IS NOT NULL`,
    [now.toISOString(), new Date(now.getTime() - 2 * 86_400_000).toISOString()],
  );
  for (const { client_id } of lapsed) await refreshAccess(deps, Number(client_id));
  return { retried: waiting.length, processed: matched, lapsed: lapsed.length };
}

export function processDeps(app: FastifyInstance): ProcessDeps {
  return { database: app.database, clock: app.clock, entitlementLevels: app.config.REVENUECAT_ENTITLEMENT_LEVELS, log: app.log };
}

export async function registerRevenueCatJobs(app: FastifyInstance) {
  const deps = processDeps(app);
  app.jobs.define(REVENUECAT_PROCESS, async (job) => runStoredEvent(deps, Number(job.payload.id)), { maxAttempts: 5, backoffMs: 30_000 });
  app.jobs.define(REVENUECAT_SWEEP, async () => sweepEvents(deps), { maxAttempts: 1 });
  await app.jobs.schedule(REVENUECAT_SWEEP, REVENUECAT_SWEEP, SWEEP_EVERY_MS, new Date(app.clock.now().getTime() + SWEEP_EVERY_MS));
}
