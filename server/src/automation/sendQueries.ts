import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Queryable } from '../db/client';

const PushRow = z.object({
  id: z.number(),
  message_type: z.number(),
  client_id: z.number(),
  context: z.record(z.string(), z.unknown()),
  planned_for: timestamp,
  /** The day whose cap slot this push holds (set when reserved, cleared when given back). */
  local_day: z.string().nullable(),
});
export type PushRow = z.infer<typeof PushRow>;

const RecipientRow = z.object({ first_name: z.string().nullable(), last_name: z.string().nullable(), opted_out: z.boolean() });

/** What a push's job decides, written to its row. */
export interface Finished {
  status: 'sent' | 'skipped' | 'failed';
  skip_reason?: string;
  templateId?: number;
  title?: string;
  body?: string;
  local_day?: string;
  error?: string;
  pushId?: number;
}

export async function pendingPush(db: Queryable, id: number): Promise<PushRow | undefined> {
  const [row] = await db.rows(
    PushRow,
    `SELECT id, message_type, client_id, context, planned_for, local_day::text AS local_day FROM automated_pushes WHERE id = $1 AND status = 'pending'`,
    [id],
  );
  return row;
}

export async function finishPush(tx: Queryable, id: number, attempts: number, finishedAt: Date, fields: Finished) {
  await tx.execute(
    `UPDATE automated_pushes SET status = $2, skip_reason = $3, push_message_id = COALESCE($4, push_message_id), title = COALESCE($5, title),
            body = COALESCE($6, body), local_day = $7, last_error = COALESCE($8, last_error), finished_at = $9, push_id = COALESCE($10, push_id), attempts = $11
     WHERE id = $1`,
    [
      id,
      fields.status,
      fields.skip_reason ?? null,
      fields.templateId ?? null,
      fields.title ?? null,
      fields.body ?? null,
      fields.local_day ?? null,
      fields.error ?? null,
      finishedAt.toISOString(),
      fields.pushId ?? null,
      attempts,
    ],
  );
}

/** The day of the cap slot the push holds (null: none). */
export async function setPushSlotDay(tx: Queryable, id: number, day: string | null) {
  if (day === null) await tx.execute('UPDATE automated_pushes SET local_day = NULL WHERE id = $1', [id]);
  else await tx.execute('UPDATE automated_pushes SET local_day = $2 WHERE id = $1', [id, day]);
}

export async function deferPush(tx: Queryable, id: number, until: Date, attempts: number) {
  await tx.execute('UPDATE automated_pushes SET due_at = $2, deferred = true, attempts = $3 WHERE id = $1', [id, until.toISOString(), attempts]);
}

export async function notePushError(tx: Queryable, id: number, error: string, attempts: number) {
  await tx.execute('UPDATE automated_pushes SET last_error = $2, attempts = $3 WHERE id = $1', [id, error, attempts]);
}

/** The client a push goes to, with whether they opted out; undefined when gone. */
export async function pushRecipient(database: Queryable, clientId: number) {
  const [client] = await database.rows(RecipientRow, 'SELECT first_name, last_name, automated_messages_opt_out AS opted_out FROM clients WHERE id = $1', [
    clientId,
  ]);
  return client;
}
