import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Database, Queryable } from '../db/client';
import type { Candidates } from './triggerQueries';

const CountRow = z.object({ count: z.number() });
const EligibleRow = z.object({
  client_id: z.number(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  planned_for: timestamp,
  context: z.record(z.string(), z.unknown()),
});
const OutcomeCountRow = z.object({ push_message_id: z.number().nullable(), status: z.string(), skip_reason: z.string().nullable(), count: z.number() });
const TemplateTextRow = z.object({ id: z.number(), title: z.string(), message: z.string() });
const OptOutRow = z.object({ opted_out: z.boolean() });
const ClientPushRow = z.object({
  id: z.number(),
  message_type: z.number(),
  msg_type_title: z.string(),
  status: z.enum(['pending', 'sending', 'sent', 'skipped', 'failed']),
  skip_reason: z.string().nullable(),
  title: z.string().nullable(),
  body: z.string().nullable(),
  planned_for: timestamp,
  finished_at: timestamp.nullable(),
  last_error: z.string().nullable(),
});

/**
 * The trigger's candidates a run would message: less events already planned, opted-out clients and
 * clients without a device token. Their number, and the first `sampleSize` in planned order.
 */
export async function eligibleCandidates(database: Database, query: Candidates, messageType: number, sampleSize: number) {
  const n = query.params.length;
  const eligible = `SELECT c.*, cl.first_name, cl.last_name FROM (${query.sql}) c
    JOIN clients cl ON cl.id = c.client_id AND NOT cl.automated_messages_opt_out
    WHERE NOT EXISTS (SELECT 1 FROM automated_pushes p WHERE p.message_type = $${n + 1} AND p.client_id = c.client_id AND p.event_key = c.event_key)
      AND EXISTS (SELECT 1 FROM debug_records d WHERE d.client_id = c.client_id AND d.used_for_push
                  AND COALESCE(NULLIF(d.firebase_token_new, ''), NULLIF(d.firebase_token_current, '')) IS NOT NULL)`;
  const params = [...query.params, messageType];
  const [counted] = await database.rows(CountRow, `SELECT count(*)::int AS count FROM (${eligible}) e`, params);
  const sample = await database.rows(EligibleRow, `SELECT * FROM (${eligible}) e ORDER BY e.planned_for, e.client_id LIMIT ${sampleSize}`, params);
  return { count: counted?.count ?? 0, sample };
}

/** Finished pushes of a type since `since`, counted by template, status and skip reason. */
export async function outcomeCounts(database: Database, messageType: number, since: Date) {
  return database.rows(
    OutcomeCountRow,
    `SELECT push_message_id, status, skip_reason, count(*)::int AS count FROM automated_pushes
     WHERE message_type = $1 AND finished_at >= $2 AND status IN ('sent', 'skipped', 'failed')
     GROUP BY push_message_id, status, skip_reason`,
    [messageType, since.toISOString()],
  );
}

/** Every template of a type, enabled or not. */
export async function templatesOf(database: Database, messageType: number) {
  return database.rows(TemplateTextRow, 'SELECT id, title, message FROM push_messages WHERE message_type = $1 ORDER BY id', [messageType]);
}

/** One template of a type, or undefined. */
export async function templateOf(database: Database, id: number, messageType: number) {
  const [template] = await database.rows(TemplateTextRow, 'SELECT id, title, message FROM push_messages WHERE id = $1 AND message_type = $2', [
    id,
    messageType,
  ]);
  return template;
}

export async function pendingCount(database: Database, messageType: number): Promise<number> {
  const [pending] = await database.rows(
    CountRow,
    `SELECT count(*)::int AS count FROM automated_pushes WHERE message_type = $1 AND status IN ('pending', 'sending')`,
    [messageType],
  );
  return pending?.count ?? 0;
}

/** Whether the client opted out of automated messages; undefined for no such client. */
export async function clientOptedOut(database: Queryable, clientId: number): Promise<boolean | undefined> {
  const [client] = await database.rows(OptOutRow, 'SELECT automated_messages_opt_out AS opted_out FROM clients WHERE id = $1', [clientId]);
  return client?.opted_out;
}

/** The same, the client row locked until the transaction ends. */
export async function lockClientOptOut(tx: Queryable, clientId: number): Promise<boolean | undefined> {
  const [before] = await tx.rows(OptOutRow, 'SELECT automated_messages_opt_out AS opted_out FROM clients WHERE id = $1 FOR UPDATE', [clientId]);
  return before?.opted_out;
}

export async function setClientOptOutFlag(tx: Queryable, clientId: number, optedOut: boolean) {
  await tx.execute('UPDATE clients SET automated_messages_opt_out = $1 WHERE id = $2', [optedOut, clientId]);
}

/** The client's latest 100 automated pushes, newest planned first. */
export async function clientPushes(database: Database, clientId: number) {
  return database.rows(
    ClientPushRow,
    `SELECT p.id, p.message_type, t.title AS msg_type_title, p.status, p.skip_reason, p.title, p.body, p.planned_for, p.finished_at, p.last_error
     FROM automated_pushes p JOIN message_types t ON t.id = p.message_type
     WHERE p.client_id = $1 ORDER BY p.planned_for DESC, p.id DESC LIMIT 100`,
    [clientId],
  );
}
