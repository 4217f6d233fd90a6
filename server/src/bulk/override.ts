import type { FastifyInstance } from 'fastify';
import { BULK_INLINE_MAX, type BulkAction } from '@contract/bulkActions';
import type { ClientFilter } from '@contract/clientFilter';
import { overrideEndProblem } from '@contract/clientRules';
import type { Actor } from '../audit/record';
import { grantAccessLevelIn } from '../clients/actions';
import type { Database, Queryable } from '../db/client';
import { LeaseLostError } from '../jobs/job';
import { runAgainAt, type RunAgain, type RunningJob } from '../jobs/queue';
import { HttpError, notFound } from '../lib/errors';
import { isUniqueViolation, keyReused, type Intent } from '../lib/idempotency';
import {
  accessLevelOrders,
  actionTotal,
  bulkActionByKey,
  insertOverrideAction,
  insertTargets,
  lockPendingTarget,
  markActionDone,
  markTarget,
  overrideAction,
  pendingTargets,
  runningAction,
  setTotal,
  targetCounts,
  targetErrors,
} from './queries';

/** The job that grants a bulk override beyond one page (default lane). */
export const BULK_OVERRIDE = 'bulk.override';
const SLICE_MS = 20_000;

const refuse = (path: string, message: string) => new HttpError(400, message, [{ path, message }]);

interface Grant {
  level: number;
  until: Date;
  /** OVERRIDE_MAX_DAYS: the same furthest end as for one client. */
  maxDays: number;
}

/**
 * An access-level override for many clients (docs/features.md#bulk-actions), each granted exactly as
 * for one client (clients/actions.ts `grantAccessLevel`: same checks, one transaction and one audit
 * entry per client). Targets are fixed at once; up to BULK_INLINE_MAX are granted in the request,
 * more by the BULK_OVERRIDE job, whose progress GET /bulk/override/{id} shows.
 */
export async function startBulkOverride(
  app: Pick<FastifyInstance, 'database' | 'jobs'>,
  input: { clientIds?: number[]; filter?: ClientFilter; grant: Grant },
  actor: Actor,
  intent?: Intent,
): Promise<BulkAction> {
  const { database } = app;
  // The same Idempotency-Key again: the first request's bulk action, nothing granted twice.
  const earlier = async () => {
    if (!intent) return null;
    const row = await bulkActionByKey(database, intent.key);
    if (!row) return null;
    if (row.request_digest !== intent.digest) throw keyReused();
    return getBulkAction(database, row.id);
  };
  const known = await earlier();
  if (known) return known;
  try {
    return await grantInBulk(app, input, actor, intent);
  } catch (error) {
    const answered = intent && isUniqueViolation(error) ? await earlier() : null;
    if (answered) return answered;
    throw error;
  }
}

async function grantInBulk(
  app: Pick<FastifyInstance, 'database' | 'jobs'>,
  input: { clientIds?: number[]; filter?: ClientFilter; grant: Grant },
  actor: Actor,
  intent: Intent | undefined,
): Promise<BulkAction> {
  const { database } = app;
  const problem = overrideEndProblem(input.grant.until, actor.at, input.grant.maxDays);
  if (problem) throw refuse('adminOverrideDate', problem);
  const levels = await accessLevelOrders(database);
  if (!levels.includes(input.grant.level)) throw refuse('new_vod_access_level', `new_vod_access_level ${input.grant.level} is not an access level`);
  const id = await database.transaction(async (tx) => {
    const bulkId = await insertOverrideAction(tx, {
      params: JSON.stringify({ new_vod_access_level: input.grant.level, adminOverrideDate: input.grant.until.toISOString() }),
      filter: input.filter ? JSON.stringify(input.filter) : null,
      staff_user_id: actor.staff?.id ?? null,
      staff_email: actor.staff?.email ?? null,
      ip: actor.ip,
      created_at: actor.at.toISOString(),
      idempotency_key: intent?.key ?? null,
      request_digest: intent?.digest ?? null,
    });
    const total = await insertTargets(tx, bulkId, input.clientIds ? { clientIds: input.clientIds } : { filter: input.filter ?? {} }, actor.at);
    if (total === 0) throw new HttpError(400, 'No client matches: nothing to grant', [{ path: 'client_ids', message: 'selects no client' }]);
    await setTotal(tx, bulkId, total);
    if (total > BULK_INLINE_MAX)
      await app.jobs.sendMany(BULK_OVERRIDE, [{ payload: { bulk_action_id: bulkId }, singleton_key: `bulk-override:${bulkId}` }], tx);
    return bulkId;
  });
  if ((await actionTotal(database, id)) <= BULK_INLINE_MAX)
    await grantPending(
      database,
      (work) => database.transaction(work),
      id,
      input.grant,
      actor,
      () => true,
    );
  return getBulkAction(database, id);
}

type InTransaction = <T>(work: (tx: Queryable) => Promise<T>) => Promise<T>;

/**
 * Grants the pending targets while `goOn()` says so; true when none is left (and the action is done).
 * Each grant, its audit entry and its target's status commit together through `inTransaction`: in the
 * job that is `job.transaction`, so a worker whose lease ran out grants nothing twice.
 */
async function grantPending(database: Database, inTransaction: InTransaction, id: number, grant: Grant, actor: Actor, goOn: () => boolean): Promise<boolean> {
  while (goOn()) {
    const batch = await pendingTargets(database, id);
    if (batch.length === 0) {
      await inTransaction((tx) => markActionDone(tx, id, actor.at));
      return true;
    }
    for (const clientId of batch) {
      try {
        await inTransaction(async (tx) => {
          // Still pending inside the fence: another worker may have granted it since the batch was read.
          if (!(await lockPendingTarget(tx, id, clientId))) return;
          await grantAccessLevelIn(tx, { clientId, level: grant.level, until: grant.until, maxDays: grant.maxDays }, actor);
          await markTarget(tx, id, clientId, null);
        });
      } catch (failure) {
        if (failure instanceof LeaseLostError) throw failure;
        const message = (failure instanceof Error ? failure.message : String(failure)).slice(0, 500);
        await inTransaction((tx) => markTarget(tx, id, clientId, message));
      }
    }
  }
  return false;
}

export async function getBulkAction(database: Database, id: number): Promise<BulkAction> {
  const action = await overrideAction(database, id);
  if (!action) throw notFound(`No bulk action with id ${id}`);
  const counts = await targetCounts(database, id);
  const count = (status: string) => counts.find((row) => row.status === status)?.n ?? 0;
  const errors = await targetErrors(database, id);
  return {
    id: action.id,
    kind: 'override',
    status: action.status,
    total: action.total,
    done: count('done'),
    failed: count('failed'),
    pending: count('pending'),
    errors: errors.map((row) => ({ client_id: row.client_id, message: row.error })),
    created_at: action.created_at.toISOString(),
    finished_at: action.finished_at === null ? null : action.finished_at.toISOString(),
  };
}

/** The BULK_OVERRIDE job: grants for 20 seconds, then defers itself; after a restart it goes on with what is pending. */
export function registerBulkJobs(app: FastifyInstance) {
  app.jobs.define(
    BULK_OVERRIDE,
    async (job: RunningJob): Promise<{ status: string } | RunAgain> => {
      const id = Number(job.payload.bulk_action_id);
      const action = await runningAction(app.database, id);
      if (!action) return { status: 'gone' };
      const { params } = action;
      const started = app.clock.now();
      const actor: Actor = {
        staff: action.staff_user_id !== null && action.staff_email ? { id: action.staff_user_id, email: action.staff_email } : null,
        ip: action.ip,
        at: started,
      };
      const finished = await grantPending(
        app.database,
        (work) => job.transaction(work),
        id,
        { level: params.new_vod_access_level, until: new Date(params.adminOverrideDate), maxDays: app.config.OVERRIDE_MAX_DAYS },
        actor,
        () => app.clock.now().getTime() - started.getTime() < SLICE_MS,
      );
      return finished ? { status: 'done' } : runAgainAt(app.clock.now());
    },
    { maxAttempts: 10 },
  );
}
