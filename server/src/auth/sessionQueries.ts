import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Queryable } from '../db/client';
import { StaffUserRow, type StaffUser } from '../staff/queries';

const SessionRow = z.object({
  id: z.string(),
  staff_user_id: z.number(),
  created_at: timestamp,
  last_seen_at: timestamp,
  expires_at: timestamp,
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  verified_at: timestamp,
  second_step: z.string().nullable(),
});
export type SessionRow = z.infer<typeof SessionRow>;

const SESSION_COLUMNS = 'id, staff_user_id, created_at, last_seen_at, expires_at, ip, user_agent, verified_at, second_step';
const Removed = z.object({ id: z.string() });
const VerifiedAt = z.object({ at: timestamp });
/** A session and its account's columns (under `user_`), from one join. */
const SessionWithUser = SessionRow.extend({
  user_email: StaffUserRow.shape.email,
  user_password_hash: StaffUserRow.shape.password_hash,
  user_nickname: StaffUserRow.shape.nickname,
  user_picture: StaffUserRow.shape.picture,
  user_oidc_subject: StaffUserRow.shape.oidc_subject,
  user_created_at: StaffUserRow.shape.created_at,
  user_last_sign_in_at: StaffUserRow.shape.last_sign_in_at,
  user_device_token: StaffUserRow.shape.device_token,
  user_role: StaffUserRow.shape.role,
  user_disabled_at: StaffUserRow.shape.disabled_at,
  user_two_step_at: StaffUserRow.shape.two_step_at,
});

export async function insertSession(database: Queryable, session: Omit<SessionRow, 'verified_at'> & { verified_at: Date }, signedInAt: Date): Promise<void> {
  await database.execute(
    `INSERT INTO sessions (id, staff_user_id, created_at, last_seen_at, verified_at, second_step, expires_at, ip, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      session.id,
      session.staff_user_id,
      session.created_at,
      session.last_seen_at,
      session.verified_at,
      session.second_step,
      session.expires_at,
      session.ip,
      session.user_agent,
    ],
  );
  await database.execute('UPDATE staff_users SET last_sign_in_at = $2 WHERE id = $1', [session.staff_user_id, signedInAt]);
}

/** The account's sessions neither past their end nor idle since `idleSince`, most recently used first. */
export function activeSessions(database: Queryable, staffUserId: number, now: Date, idleSince: Date): Promise<SessionRow[]> {
  return database.rows(
    SessionRow,
    `SELECT ${SESSION_COLUMNS} FROM sessions
     WHERE staff_user_id = $1 AND expires_at > $2 AND last_seen_at > $3
     ORDER BY last_seen_at DESC, created_at DESC`,
    [staffUserId, now, idleSince],
  );
}

/** Deletes one of the account's sessions; whether it was there. */
export async function deleteSession(database: Queryable, staffUserId: number, id: string): Promise<boolean> {
  return (await database.rows(Removed, 'DELETE FROM sessions WHERE id = $1 AND staff_user_id = $2 RETURNING id', [id, staffUserId])).length > 0;
}

/** Deletes every session of the account but `keepId` (none kept when null); how many. */
export async function deleteOtherSessions(database: Queryable, staffUserId: number, keepId: string | null): Promise<number> {
  const removed =
    keepId === null
      ? await database.rows(Removed, 'DELETE FROM sessions WHERE staff_user_id = $1 RETURNING id', [staffUserId])
      : await database.rows(Removed, 'DELETE FROM sessions WHERE staff_user_id = $1 AND id <> $2 RETURNING id', [staffUserId, keepId]);
  return removed.length;
}

/** The session by its stored id, with its account. */
export async function sessionWithUser(database: Queryable, id: string): Promise<{ session: SessionRow; user: StaffUser } | undefined> {
  const [row] = await database.rows(
    SessionWithUser,
    `SELECT s.id, s.staff_user_id, s.created_at, s.last_seen_at, s.expires_at, s.ip, s.user_agent, s.verified_at, s.second_step,
            u.email AS user_email, u.password_hash AS user_password_hash, u.nickname AS user_nickname, u.picture AS user_picture,
            u.oidc_subject AS user_oidc_subject, u.created_at AS user_created_at, u.last_sign_in_at AS user_last_sign_in_at,
            u.device_token AS user_device_token, u.role AS user_role, u.disabled_at AS user_disabled_at, u.two_step_at AS user_two_step_at
     FROM sessions s JOIN staff_users u ON u.id = s.staff_user_id
     WHERE s.id = $1 LIMIT 1`,
    [id],
  );
  if (!row) return undefined;
  const { id: sessionId, staff_user_id, created_at, last_seen_at, expires_at, ip, user_agent, verified_at, second_step } = row;
  return {
    session: { id: sessionId, staff_user_id, created_at, last_seen_at, expires_at, ip, user_agent, verified_at, second_step },
    user: {
      id: staff_user_id,
      email: row.user_email,
      password_hash: row.user_password_hash,
      nickname: row.user_nickname,
      picture: row.user_picture,
      oidc_subject: row.user_oidc_subject,
      created_at: row.user_created_at,
      last_sign_in_at: row.user_last_sign_in_at,
      device_token: row.user_device_token,
      role: row.user_role,
      disabled_at: row.user_disabled_at,
      two_step_at: row.user_two_step_at,
    },
  };
}

export function touchSession(database: Queryable, id: string, at: Date): Promise<void> {
  return database.execute('UPDATE sessions SET last_seen_at = $2 WHERE id = $1', [id, at]);
}

export function deleteSessionById(database: Queryable, id: string): Promise<void> {
  return database.execute('DELETE FROM sessions WHERE id = $1', [id]);
}

/** Re-authenticated at `at`; `secondStep` kept unless the session already has one. */
export function markSessionVerified(database: Queryable, id: string, at: Date, secondStep: string | undefined): Promise<void> {
  return secondStep
    ? database.execute('UPDATE sessions SET verified_at = $2, second_step = coalesce(second_step, $3) WHERE id = $1', [id, at, secondStep])
    : database.execute('UPDATE sessions SET verified_at = $2 WHERE id = $1', [id, at]);
}

export async function sessionVerifiedAt(database: Queryable, id: string): Promise<Date | null> {
  const [row] = await database.rows(VerifiedAt, 'SELECT verified_at AS at FROM sessions WHERE id = $1', [id]);
  return row?.at ?? null;
}

/** Deletes sessions past their end or idle since `idleSince`; how many. */
export async function deleteEndedSessions(database: Queryable, now: Date, idleSince: Date): Promise<number> {
  return (await database.rows(Removed, 'DELETE FROM sessions WHERE expires_at < $1 OR last_seen_at < $2 RETURNING id', [now, idleSince])).length;
}
