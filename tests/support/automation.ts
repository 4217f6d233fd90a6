import type { Database } from '../../server/src/db/client';
import type { AutomatedSender, PushOutcome } from '../../server/src/automation/sender';

/** Hand-made data for the automated-messages tests: clients, visits, streams, templates. */

let mb = 0;

export async function resetAutomation(database: Database, startedAt = '2026-01-01T00:00:00Z') {
  await database.execScript(
    `TRUNCATE automated_pushes, automated_push_days, pushes, dead_push_tokens, mindbody_visits, video_views, debug_records, automation_settings, automation_plan_marks RESTART IDENTITY CASCADE;
     DELETE FROM push_messages; DELETE FROM clients; DELETE FROM app_settings WHERE key LIKE 'automation.%';
     DELETE FROM jobs WHERE queue LIKE 'automation.%';`,
  );
  await database.query("INSERT INTO app_settings (key, value) VALUES ('automation.started_at', $1)", [startedAt]);
  // Every type starts paused so a test sees only the type it sets up (addTemplate turns its type on).
  for (const type of [1, 2, 3, 4, 5, 6]) await setTypeSettings(database, type, { active: false });
}

export async function addClient(
  database: Database,
  fields: { first_name?: string | null; last_name?: string | null; token?: string | null; opted_out?: boolean } = {},
): Promise<number> {
  const [row] = await database.query<{ id: number }>(
    'INSERT INTO clients (first_name, last_name, automated_messages_opt_out) VALUES ($1, $2, $3) RETURNING id',
    [fields.first_name === undefined ? 'Ana' : fields.first_name, fields.last_name ?? 'Lopez', fields.opted_out ?? false],
  );
  const id = Number(row!.id);
  const token = fields.token === undefined ? `token-${id}` : fields.token;
  if (token !== null) {
    await database.query(`INSERT INTO debug_records (client_id, firebase_token_new, platform, sent_at) VALUES ($1, $2, 'ios', '2026-11-01T00:00:00Z')`, [
      id,
      token,
    ]);
  }
  return id;
}

export type VisitKind = 'signed_in' | 'missed' | 'late_cancelled';

export async function addVisit(
  database: Database,
  clientId: number,
  fields: { kind: VisitKind; start: string; minutes?: number; class_name?: string | null; modified?: string },
): Promise<number> {
  const start = new Date(fields.start);
  const end = new Date(start.getTime() + (fields.minutes ?? 60) * 60_000);
  mb++;
  const [row] = await database.query<{ id: number }>(
    `INSERT INTO mindbody_visits (client_id, mb_site_id, mb_visit_id, class_name, start_at, end_at, attendance, signed_in, missed, late_cancelled, last_modified_at, imported_at)
     VALUES ($1, -99, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
    [
      clientId,
      mb + Math.floor(Math.random() * 1e9),
      fields.class_name === undefined ? 'Power Yoga' : fields.class_name,
      start.toISOString(),
      end.toISOString(),
      fields.kind,
      fields.kind === 'signed_in',
      fields.kind === 'missed',
      fields.kind === 'late_cancelled',
      fields.modified ?? end.toISOString(),
      fields.modified ?? end.toISOString(),
    ],
  );
  return Number(row!.id);
}

export async function addView(database: Database, clientId: number, at: string) {
  let [video] = await database.query<{ id: number }>("SELECT id FROM videos WHERE vimeo_video_id = 'automation-test'");
  if (!video)
    [video] = await database.query<{ id: number }>(
      "INSERT INTO videos (vimeo_video_id, title, duration) VALUES ('automation-test', 'Core Burn', 900) RETURNING id",
    );
  await database.query('INSERT INTO video_views (client_id, video_id, viewed_at) VALUES ($1, $2, $3)', [clientId, video!.id, at]);
}

export async function addTemplate(database: Database, messageType: number, title: string, message: string, enabled = true): Promise<number> {
  const [row] = await database.query<{ id: number }>('INSERT INTO push_messages (message_type, title, message, enabled) VALUES ($1, $2, $3, $4) RETURNING id', [
    messageType,
    title,
    message,
    enabled,
  ]);
  await setTypeSettings(database, messageType, { active: true });
  return Number(row!.id);
}

export async function setTypeSettings(database: Database, messageType: number, settings: Record<string, unknown>) {
  await database.query(
    `INSERT INTO automation_settings (message_type, settings, updated_at) VALUES ($1, $2, now())
     ON CONFLICT (message_type) DO UPDATE SET settings = automation_settings.settings || EXCLUDED.settings`,
    [messageType, JSON.stringify(settings)],
  );
}

export async function setGlobalSettings(database: Database, settings: Record<string, unknown>) {
  await database.query("INSERT INTO app_settings (key, value) VALUES ('automation.global', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", [
    JSON.stringify({ quiet_start: '21:00', quiet_end: '08:00', daily_cap: 1, ...settings }),
  ]);
}

export interface Delivery {
  clientId: number;
  messageType: number;
  title: string;
  body: string;
  key: string;
}

/** A sender that records what it was asked to send; `script` makes the next calls fail. */
export function recordingSender() {
  const delivered: Delivery[] = [];
  const calls: Delivery[] = [];
  const script: PushOutcome[] = [];
  const sender: AutomatedSender & { delivered: Delivery[]; calls: Delivery[]; script: PushOutcome[] } = {
    delivered,
    calls,
    script,
    async sendToClient(push) {
      const delivery = { clientId: push.clientId, messageType: push.messageType, title: push.title, body: push.body, key: push.key };
      calls.push(delivery);
      const scripted = script.shift();
      if (scripted && scripted.status !== 'sent') return scripted;
      delivered.push(delivery);
      return { status: 'sent' };
    },
    async sendToToken() {
      return { status: 'sent' };
    },
  };
  return sender;
}

export async function pushRows(database: Database, where = 'TRUE') {
  return database.query<{
    id: number;
    message_type: number;
    client_id: number;
    status: string;
    skip_reason: string | null;
    title: string | null;
    body: string | null;
    attempts: number;
    deferred: boolean;
    push_message_id: number | null;
    last_error: string | null;
  }>(
    `SELECT id, message_type, client_id::int AS client_id, status, skip_reason, title, body, attempts, deferred, push_message_id, last_error FROM automated_pushes WHERE ${where} ORDER BY id`,
  );
}
