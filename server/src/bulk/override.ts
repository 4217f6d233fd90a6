import type { FastifyInstance } from 'fastify';
import { BULK_INLINE_MAX, type BulkAction } from '@contract/bulkActions';
import type { ClientFilter } from '@contract/clientFilter';
import { overrideEndProblem } from '@contract/clientRules';
import type { Actor } from '../audit/record';
import { grantAccessLevelIn } from '../clients/actions';
import { clientFilterWhere } from '../clients/filterQueries';
import type { Database, Queryable } from '../db/client';
import { LeaseLostError } from '../jobs/job';
import { runAgainAt, type RunAgain, type RunningJob } from '../jobs/queue';
import { HttpError, notFound } from '../lib/errors';
import { isUniqueViolation, keyReused, type Intent } from '../lib/idempotency';

/** The job that grants a bulk override beyond one page (default lane). */
export const BULK_OVERRIDE = 'bulk.override';
const BATCH = 100;
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
    const [row] = await database.query<{ id: number; request_digest: string | null }>(
      'SELECT id, request_digest FROM bulk_actions WHERE idempotency_key = $1',
      [intent.key],
    );
    if (!row) return null;
    if (row.request_digest !== intent.digest) throw keyReused();
    return getBulkAction(database, Number(row.id));
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
  const levels = await database.query<{ sort_order: number }>('SELECT sort_order FROM access_levels');
  if (!levels.some((known) => Number(known.sort_order) === input.grant.level))
    throw refuse('new_vod_access_level', `new_vod_access_level ${input.grant.level} is not an access level`);
  const id = await database.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>(
      `INSERT INTO bulk_actions (kind, params, filter, status, staff_user_id, staff_email, ip, created_at, idempotency_key, request_digest)
       VALUES ('override', $1::jsonb, $2::jsonb, 'running', $3, $4, $5, $6, $7, $8) RETURNING id`,
      [
        JSON.stringify({ new_vod_access_level: input.grant.level, adminOverrideDate: input.grant.until.toISOString() }),
        input.filter ? JSON.stringify(input.filter) : null,
        actor.staff?.id ?? null,
        actor.staff?.email ?? null,
        actor.ip,
        actor.at.toISOString(),
        intent?.key ?? null,
        intent?.digest ?? null,
      ],
    );
    const bulkId = Number(row!.id);
    let select: string;
    let params: unknown[];
    if (input.clientIds) {
      select = 'SELECT $1::bigint, c.id FROM clients c WHERE c.id = ANY($2::bigint[])';
      params = [bulkId, input.clientIds];
    } else {
      const where = clientFilterWhere([input.filter ?? {}], actor.at);
      select = `SELECT ${where.param(bulkId)}::bigint, c.id FROM clients c ${where}`;
      params = where.params;
    }
    const [added] = await tx.query<{ n: number }>(
      `WITH added AS (INSERT INTO bulk_action_targets (bulk_action_id, client_id) ${select} RETURNING 1) SELECT count(*)::int AS n FROM added`,
      params,
    );
    const total = Number(added!.n);
    if (total === 0) throw new HttpError(400, 'No client matches: nothing to grant', [{ path: 'client_ids', message: 'selects no client' }]);
    await tx.query('UPDATE bulk_actions SET total = $2 WHERE id = $1', [bulkId, total]);
    if (total > BULK_INLINE_MAX)
      await app.jobs.sendMany(BULK_OVERRIDE, [{ payload: { bulk_action_id: bulkId }, singleton_key: `bulk-override:${bulkId}` }], tx);
    return bulkId;
  });
  const [{ total }] = (await database.query<{ total: number }>('SELECT total FROM bulk_actions WHERE id = $1', [id])) as [{ total: number }];
  if (Number(total) <= BULK_INLINE_MAX)
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
  const markTarget = (tx: Queryable, clientId: number, error: string | null) =>
    tx.query("UPDATE bulk_action_targets SET status = $3, error = $4 WHERE bulk_action_id = $1 AND client_id = $2 AND status = 'pending'", [
      id,
      clientId,
      error ? 'failed' : 'done',
      error,
    ]);
  while (goOn()) {
    const batch = await database.query<{ client_id: number }>(
      `SELECT client_id FROM bulk_action_targets WHERE bulk_action_id = $1 AND status = 'pending' ORDER BY client_id LIMIT ${BATCH}`,
      [id],
    );
    if (batch.length === 0) {
      await inTransaction((tx) =>
        tx.query("UPDATE bulk_actions SET status = 'done', finished_at = $2 WHERE id = $1 AND status = 'running'", [id, actor.at.toISOString()]),
      );
      return true;
    }
    for (const { client_id } of batch) {
      const clientId = Number(client_id);
      try {
        await inTransaction(async (tx) => {
          // Still pending inside the fence: another worker may have granted it since the batch was read.
          const [pending] = await tx.query("SELECT 1 FROM bulk_action_targets WHERE bulk_action_id = $1 AND client_id = $2 AND status = 'pending' FOR UPDATE", [
            id,
            clientId,
          ]);
          if (!pending) return;
          await grantAccessLevelIn(tx, { clientId, level: grant.level, until: grant.until, maxDays: grant.maxDays }, actor);
          await markTarget(tx, clientId, null);
        });
      } catch (failure) {
        if (failure instanceof LeaseLostError) throw failure;
        const message = (failure instanceof Error ? failure.message : String(failure)).slice(0, 500);
        await inTransaction((tx) => markTarget(tx, clientId, message));
      }
    }
  }
  return false;
}

export async function getBulkAction(database: Database, id: number): Promise<BulkAction> {
  const [action] = await database.query<{
    id: number;
    status: 'running' | 'done';
    total: number;
    created_at: Date | string;
    finished_at: Date | string | null;
  }>("SELECT id, status, total, created_at, finished_at FROM bulk_actions WHERE id = $1 AND kind = 'override'", [id]);
  if (!action) throw notFound(`No bulk action with id ${id}`);
  const counts = await database.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM bulk_action_targets WHERE bulk_action_id = $1 GROUP BY status',
    [id],
  );
  const count = (status: string) => Number(counts.find((row) => row.status === status)?.n ?? 0);
  const errors = await database.query<{ client_id: number; error: string }>(
    "SELECT client_id, error FROM bulk_action_targets WHERE bulk_action_id = $1 AND status = 'failed' ORDER BY client_id LIMIT 10",
    [id],
  );
  return {
    id: Number(action.id),
    kind: 'override',
    status: action.status,
    total: Number(action.total),
    done: count('done'),
    failed: count('failed'),
    pending: count('pending'),
    errors: errors.map((row) => ({ client_id: Number(row.client_id), message: row.error })),
    created_at: new Date(action.created_at).toISOString(),
    finished_at: action.finished_at === null ? null : new Date(action.finished_at).toISOString(),
  };
}

/** The BULK_OVERRIDE job: grants for 20 seconds, then defers itself; after a restart it goes on with what is pending. */
export function registerBulkJobs(app: FastifyInstance) {
  app.jobs.define(
    BULK_OVERRIDE,
    async (job: RunningJob): Promise<{ status: string } | RunAgain> => {
      const id = Number(job.payload.bulk_action_id);
      const [action] = await app.database.query<{
        params: { new_vod_access_level: number; adminOverrideDate: string };
        staff_user_id: number | null;
        staff_email: string | null;
        ip: string | null;
      }>("SELECT params, staff_user_id, staff_email, ip FROM bulk_actions WHERE id = $1 AND status = 'running'", [id]);
      if (!action) return { status: 'gone' };
      const params = typeof action.params === 'string' ? (JSON.parse(action.params) as typeof action.params) : action.params;
      const started = app.clock.now();
      const actor: Actor = {
        staff: action.staff_user_id !== null && action.staff_email ? { id: Number(action.staff_user_id), email: action.staff_email } : null,
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
