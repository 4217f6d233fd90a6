import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { AutomationGlobalSettings, AutomationTypeSettings } from '../../../contract/automation';
import { fillPlaceholders } from '../../../contract/placeholders';
import type { Database } from '../db/client';
import type { Clock } from '../types';
import { chooseTemplate, inQuietHours, MAX_SEND_ATTEMPTS, quietHoursEnd, retryDelayMs, STALE_AFTER_MS } from './rules';
import type { AutomatedSender, PushOutcome } from './sender';
import { loadAllTypeSettings, loadGlobalSettings } from './settings';
import { localDay } from './time';
import { LOOKBACK_MS, MESSAGE_TYPES, planEvents } from './planning';
import { enabledTemplates, isMilestone, placeholderValues, previousTemplate, type Template } from './templates';

export { enabledTemplates, isMilestone, placeholderValues, previousTemplate, type Template };
export { LOOKBACK_MS, MESSAGE_TYPES };

/** message_types.slug: the `source` of an automated push in the pushes table. */
export const MESSAGE_SLUGS: Record<number, string> = {
  1: 'high-fives',
  2: 'missed-class',
  3: 'notetoself',
  4: 'monday-morning',
  5: 'cancelled-class',
  6: 'extended-absense',
};
const LEASE_MS = 5 * 60_000;
const CLAIM_BATCH = 10;

export interface EngineDeps {
  database: Database;
  clock: Clock;
  sender: AutomatedSender;
  timeZone: string;
  log: { warn: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void };
}

export interface RunOptions {
  heartbeat?: () => Promise<void>;
  signal?: AbortSignal;
}

export interface TickResult {
  planned: number;
  sent: number;
  skipped: number;
  failed: number;
  deferred: number;
  retrying: number;
}


interface PushRow {
  id: number;
  message_type: number;
  client_id: number;
  event_key: string;
  context: Record<string, unknown>;
  planned_for: string | Date;
  attempts: number;
  /** The day whose cap slot this push holds (set when reserved, cleared when given back). */
  local_day: string | null;
}

interface RunState {
  types: Map<number, AutomationTypeSettings>;
  global: AutomationGlobalSettings;
  templates: Map<number, Template[]>;
}

/**
 * The sending engine. `tick()` plans every trigger's events into automated_pushes (the unique
 * event key makes a second instance's or a repeated plan a no-op), then claims due rows with FOR
 * UPDATE SKIP LOCKED and sends each once. Every rule that can stop a push records why.
 */
export function createAutomationEngine(deps: EngineDeps) {
  const { database, clock, sender, timeZone } = deps;
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

  async function loadState(): Promise<RunState> {
    return { types: await loadAllTypeSettings(database), global: await loadGlobalSettings(database), templates: await enabledTemplates(database) };
  }

  async function finish(
    id: number,
    fields: { status: 'sent' | 'skipped' | 'failed'; skip_reason?: string; template?: Template; title?: string; body?: string; local_day?: string; error?: string; pushId?: number },
  ) {
    await database.query(
      `UPDATE automated_pushes SET status = $2, skip_reason = $3, push_message_id = COALESCE($4, push_message_id), title = COALESCE($5, title),
              body = COALESCE($6, body), local_day = $7, last_error = COALESCE($8, last_error), finished_at = $9, push_id = COALESCE($10, push_id),
              locked_by = NULL, locked_until = NULL
       WHERE id = $1`,
      [
        id,
        fields.status,
        fields.skip_reason ?? null,
        fields.template?.id ?? null,
        fields.title ?? null,
        fields.body ?? null,
        fields.local_day ?? null,
        fields.error ?? null,
        clock.now().toISOString(),
        fields.pushId ?? null,
      ],
    );
  }

  async function requeue(id: number, dueAt: Date, fields: { deferred?: boolean; error?: string; refundAttempt?: boolean }) {
    await database.query(
      `UPDATE automated_pushes SET status = 'pending', due_at = $2, deferred = deferred OR $3, last_error = COALESCE($4, last_error),
              attempts = attempts - $5, locked_by = NULL, locked_until = NULL
       WHERE id = $1`,
      [id, dueAt.toISOString(), fields.deferred ?? false, fields.error ?? null, fields.refundAttempt ? 1 : 0],
    );
  }

  /** Takes a slot of the client's daily cap; false when the cap is reached (atomic across workers). */
  async function reserveSlot(clientId: number, day: string, cap: number): Promise<boolean> {
    const rows = await database.query(
      `INSERT INTO automated_push_days (client_id, local_day, sent) VALUES ($1, $2, 1)
       ON CONFLICT (client_id, local_day) DO UPDATE SET sent = automated_push_days.sent + 1 WHERE automated_push_days.sent < $3
       RETURNING sent`,
      [clientId, day, cap],
    );
    return rows.length > 0;
  }

  async function releaseSlot(row: PushRow, day: string) {
    await database.query('UPDATE automated_push_days SET sent = sent - 1 WHERE client_id = $1 AND local_day = $2 AND sent > 0', [row.client_id, day]);
    await database.query('UPDATE automated_pushes SET local_day = NULL WHERE id = $1', [row.id]);
  }

  /**
   * The slot of today's cap this push needs. A push retried after its worker died still holds the
   * slot it took; one from another day gives that back first.
   */
  async function holdSlot(row: PushRow, day: string, cap: number): Promise<boolean> {
    if (row.local_day === day) return true;
    if (row.local_day) await releaseSlot(row, row.local_day);
    if (!(await reserveSlot(row.client_id, day, cap))) return false;
    await database.query('UPDATE automated_pushes SET local_day = $2 WHERE id = $1', [row.id, day]);
    return true;
  }

  type Result = 'sent' | 'skipped' | 'failed' | 'deferred' | 'retrying';

  async function dispatchOne(row: PushRow, state: RunState): Promise<Result> {
    const now = clock.now();
    const settings = state.types.get(row.message_type)!;
    if (!settings.active || now.getTime() - new Date(row.planned_for).getTime() > STALE_AFTER_MS) {
      // A push retried after its worker died may still hold a slot of the daily cap.
      if (row.local_day) await releaseSlot(row, row.local_day);
      return finish(row.id, { status: 'skipped', skip_reason: settings.active ? 'expired' : 'paused' }).then(() => 'skipped');
    }
    if (inQuietHours(now, state.global, timeZone)) {
      await requeue(row.id, quietHoursEnd(now, state.global, timeZone), { deferred: true, refundAttempt: true });
      return 'deferred';
    }
    const [client] = await database.query<{ first_name: string | null; last_name: string | null; opted_out: boolean }>(
      'SELECT first_name, last_name, automated_messages_opt_out AS opted_out FROM clients WHERE id = $1',
      [row.client_id],
    );
    if (!client || client.opted_out) return finish(row.id, { status: 'skipped', skip_reason: 'opted_out' }).then(() => 'skipped');
    const template = chooseTemplate(state.templates.get(row.message_type) ?? [], await previousTemplate(database, row.client_id, row.message_type), {
      messageType: row.message_type,
      milestone: isMilestone(settings, row.context),
    });
    if (!template) return finish(row.id, { status: 'skipped', skip_reason: 'no_template' }).then(() => 'skipped');
    const values = placeholderValues(client, row.context);
    const title = fillPlaceholders(template.title, values);
    const body = fillPlaceholders(template.message, values);
    const day = localDay(now, timeZone);
    if (!(await holdSlot(row, day, state.global.daily_cap))) {
      return finish(row.id, { status: 'skipped', skip_reason: 'daily_cap', template, title, body }).then(() => 'skipped');
    }
    let outcome: PushOutcome;
    try {
      outcome = await sender.sendToClient({
        clientId: row.client_id,
        messageType: row.message_type,
        source: MESSAGE_SLUGS[row.message_type] ?? 'automated',
        key: `automated:${row.id}:${row.attempts}`,
        title,
        body,
        data: { kind: 'automated', message_type: String(row.message_type), automated_push_id: String(row.id) },
      });
    } catch (error) {
      outcome = { status: 'failed', error: error instanceof Error ? error.message : String(error), retryable: true };
    }
    if (outcome.status === 'sent') {
      await finish(row.id, { status: 'sent', template, title, body, local_day: day, pushId: outcome.pushId });
      return 'sent';
    }
    await releaseSlot(row, day);
    if (outcome.status === 'no_token') {
      return finish(row.id, { status: 'skipped', skip_reason: 'no_token', template, title, body, error: outcome.reason, pushId: outcome.pushId }).then(() => 'skipped');
    }
    const error = outcome.error.slice(0, 2000);
    if (outcome.retryable && row.attempts < MAX_SEND_ATTEMPTS) {
      await requeue(row.id, new Date(now.getTime() + retryDelayMs(row.attempts, outcome.retryAfterMs)), { error });
      return 'retrying';
    }
    deps.log.warn({ automatedPush: row.id, client: row.client_id, error }, 'automated push failed');
    await finish(row.id, { status: 'failed', template, title, body, error, pushId: outcome.pushId });
    return 'failed';
  }

  async function claim(now: Date): Promise<PushRow[]> {
    const rows = await database.query<PushRow>(
      `UPDATE automated_pushes SET status = 'sending', attempts = attempts + 1, locked_by = $1, locked_until = $2
       WHERE id IN (SELECT id FROM automated_pushes WHERE status = 'pending' AND due_at <= $3
                    ORDER BY due_at, id LIMIT ${CLAIM_BATCH} FOR UPDATE SKIP LOCKED)
       RETURNING id, message_type, client_id, event_key, context, planned_for, attempts, local_day::text AS local_day`,
      [workerId, new Date(now.getTime() + LEASE_MS).toISOString(), now.toISOString()],
    );
    // bigint columns arrive as strings or BigInt depending on the driver
    return rows.map((row) => ({ ...row, id: Number(row.id), client_id: Number(row.client_id) }));
  }

  async function dispatch(state: RunState, totals: TickResult, run: RunOptions) {
    const now = clock.now();
    // A worker that died mid-send leaves its rows 'sending'; after the lease they are retried.
    await database.query(
      `UPDATE automated_pushes SET status = 'pending', locked_by = NULL, locked_until = NULL, due_at = $1 WHERE status = 'sending' AND locked_until < $1`,
      [now.toISOString()],
    );
    for (;;) {
      // On shutdown stop between batches; what is left is due and the next run takes it.
      if (run.signal?.aborted) break;
      const batch = await claim(clock.now());
      if (batch.length === 0) break;
      // Clients in parallel (FCM calls are slow, a weekly run reaches every client), each client's
      // pushes in order so its cap and rotation see the previous one.
      const byClient = new Map<number, PushRow[]>();
      for (const row of batch) byClient.set(row.client_id, [...(byClient.get(row.client_id) ?? []), row]);
      await Promise.all(
        [...byClient.values()].map(async (rows) => {
          for (const row of rows) totals[await dispatchOne(row, state)]++;
        }),
      );
      // A Monday run to every client takes long: keep the job's lease so no other instance restarts it.
      await run.heartbeat?.();
    }
  }

  return {
    workerId,
    /** One run: plan due events, then send everything due. Safe to run on several instances at once. */
    async tick(run: RunOptions = {}): Promise<TickResult> {
      const totals: TickResult = { planned: 0, sent: 0, skipped: 0, failed: 0, deferred: 0, retrying: 0 };
      const state = await loadState();
      totals.planned = await planEvents(database, state.types, clock.now(), timeZone);
      await dispatch(state, totals, run);
      if (totals.planned + totals.sent + totals.failed > 0) deps.log.info({ ...totals }, 'automated messages run');
      return totals;
    },
  };
}

export type AutomationEngine = ReturnType<typeof createAutomationEngine>;
