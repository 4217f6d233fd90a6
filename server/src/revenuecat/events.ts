import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import { readEvent } from '../integrations/revenuecat/eventRules';
import { registerRevenueJobs } from '../revenue/backfill';
import { keepRevenueAfter } from '../revenue/keep';
import { clientsWithAccessDue, eventIdOf, insertEvent, recordEventOutcome, storedEvent, waitingEvents } from './queries';
import { processEvent, refreshAccessOf, type AccessDeps, type ProcessDeps } from './process';
import { emailId, isErased, revenuecatId } from '../lib/tombstones';

export const REVENUECAT_PROCESS = 'revenuecat.process';
/** Retries unmatched events and picks up stored events whose job was lost. */
export const REVENUECAT_SWEEP = 'revenuecat.sweep';
/** Recomputes the level of every client whose entitling purchase has just ended (or begun). */
export const PURCHASE_ACCESS_EXPIRY = 'revenuecat.access-expiry';
// "Stops granting within a minute": the check is one index range over clients.purchase_access_changes_at.
export const ACCESS_EXPIRY_EVERY_MS = 60_000;
const ACCESS_EXPIRY_BATCH = 500;
export const SWEEP_EVERY_MS = 10 * 60_000;
const SWEEP_BATCH = 500;

/**
 * Stores a delivery once per event id; false when that id was already stored (a redelivery). An
 * event about an erased client (a tombstone matches one of its ids) is kept only as its id and type,
 * ignored: it must not bring the erased data back.
 */
export async function storeEvent(database: Database, body: Record<string, unknown>, receivedAt: Date): Promise<{ id: number; created: boolean }> {
  const facts = readEvent(body.event as Record<string, unknown>);
  const erased = await isErased(database, [
    revenuecatId(facts.appUserId),
    revenuecatId(facts.originalAppUserId),
    ...facts.aliases.map((alias) => revenuecatId(alias)),
    emailId(facts.email),
  ]);
  const id = await insertEvent(database, [
    facts.id,
    facts.type,
    erased ? null : facts.appUserId,
    erased ? null : facts.originalAppUserId,
    JSON.stringify(erased ? [] : facts.aliases),
    erased ? null : facts.email,
    facts.environment,
    facts.eventAt?.toISOString() ?? null,
    JSON.stringify(erased ? { erased: true } : body),
    receivedAt.toISOString(),
    erased ? 'ignored' : 'received',
    erased ? 'erased client' : null,
  ]);
  if (id !== undefined) return { id, created: true };
  return { id: (await eventIdOf(database, facts.id))!, created: false };
}

async function runStoredEvent(deps: ProcessDeps, id: number) {
  const row = await storedEvent(deps.database, id);
  if (!row || row.state === 'processed' || row.state === 'ignored') return { state: row?.state ?? 'missing' };
  const body = (typeof row.body === 'string' ? JSON.parse(row.body) : row.body) as Record<string, unknown>;
  const outcome = await processEvent(deps, body);
  await recordEventOutcome(deps.database, id, outcome, deps.clock.now());
  if (outcome.state === 'processed') await keepRevenueAfter(deps.database, body, outcome.clientId);
  return outcome;
}

/** One sweep: events still waiting (job lost, client unknown), in event order. */
export async function sweepEvents(deps: ProcessDeps) {
  const now = deps.clock.now();
  const waiting = await waitingEvents(deps.database, new Date(now.getTime() - 60_000), SWEEP_BATCH);
  let matched = 0;
  for (const id of waiting) {
    const outcome = await runStoredEvent(deps, id);
    if (outcome.state === 'processed') matched++;
  }
  return { retried: waiting.length, processed: matched };
}

/**
 * Puts every client whose purchases' level changes by time (an expiry or grace period passing
 * with no EXPIRATION event, a renewal's period starting) on their new level. The condition lives in
 * the clients row, so a run missed while no instance was up is caught by the next one, and two
 * instances recomputing the same client agree (refreshAccessOf locks the rows).
 */
export async function expirePurchaseAccess(deps: AccessDeps): Promise<{ refreshed: number }> {
  const now = deps.clock.now();
  let refreshed = 0;
  // Each refreshed client moves to a later time or none, so a full batch means more are waiting.
  for (;;) {
    const due = await clientsWithAccessDue(deps.database, now, ACCESS_EXPIRY_BATCH);
    if (due.length > 0) await refreshAccessOf(deps, due);
    refreshed += due.length;
    if (due.length < ACCESS_EXPIRY_BATCH) return { refreshed };
  }
}

export function processDeps(app: FastifyInstance): ProcessDeps {
  return {
    database: app.database,
    clock: app.clock,
    entitlementLevels: app.config.REVENUECAT_ENTITLEMENT_LEVELS,
    acceptSandbox: app.config.REVENUECAT_ACCEPT_SANDBOX,
    log: app.log,
  };
}

/** The handlers; server/src/schedules.ts schedules the sweep and the access expiry. */
export function registerRevenueCatJobs(app: FastifyInstance) {
  const deps = processDeps(app);
  app.jobs.define(REVENUECAT_PROCESS, async (job) => runStoredEvent(deps, Number(job.payload.id)), { maxAttempts: 5, backoffMs: 30_000 });
  app.jobs.define(REVENUECAT_SWEEP, async () => sweepEvents(deps), { maxAttempts: 1 });
  app.jobs.define(PURCHASE_ACCESS_EXPIRY, async () => expirePurchaseAccess(deps), { maxAttempts: 1 });
  registerRevenueJobs(app);
}
