import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Queryable, Transaction } from '../db/client';

const PasskeyRow = z.object({
  id: z.number(),
  staff_user_id: z.number(),
  credential_id: z.string(),
  public_key: z.string(),
  counter: z.number(),
  transports: z.array(z.string()),
  user_handle: z.string(),
  name: z.string(),
  backed_up: z.boolean(),
  created_at: timestamp,
  last_used_at: timestamp.nullable(),
});
export type PasskeyRow = z.infer<typeof PasskeyRow>;

const COLUMNS = 'id, staff_user_id, credential_id, public_key, counter, transports, user_handle, name, backed_up, created_at, last_used_at';
const Id = z.object({ id: z.number() });
const Count = z.object({ count: z.number() });
const Owner = z.object({ staff_user_id: z.number() });

export function passkeysOf(database: Queryable, staffUserId: number): Promise<PasskeyRow[]> {
  return database.rows(PasskeyRow, `SELECT ${COLUMNS} FROM staff_passkeys WHERE staff_user_id = $1`, [staffUserId]);
}

export function passkeysOfInOrder(database: Queryable, staffUserId: number): Promise<PasskeyRow[]> {
  return database.rows(PasskeyRow, `SELECT ${COLUMNS} FROM staff_passkeys WHERE staff_user_id = $1 ORDER BY id ASC`, [staffUserId]);
}

export async function countPasskeys(tx: Transaction, staffUserId: number): Promise<number> {
  const [row] = await tx.rows(Count, 'SELECT count(*)::int AS count FROM staff_passkeys WHERE staff_user_id = $1', [staffUserId]);
  return row!.count;
}

/** Keeps a new passkey; undefined when its credential id is already registered. */
export async function insertPasskey(tx: Transaction, passkey: Omit<PasskeyRow, 'id' | 'last_used_at'>): Promise<PasskeyRow | undefined> {
  const [row] = await tx.rows(
    PasskeyRow,
    `INSERT INTO staff_passkeys (staff_user_id, credential_id, public_key, counter, transports, user_handle, name, backed_up, created_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9)
     ON CONFLICT (credential_id) DO NOTHING RETURNING ${COLUMNS}`,
    [
      passkey.staff_user_id,
      passkey.credential_id,
      passkey.public_key,
      passkey.counter,
      JSON.stringify(passkey.transports),
      passkey.user_handle,
      passkey.name,
      passkey.backed_up,
      passkey.created_at,
    ],
  );
  return row;
}

/** Removes one of the account's passkeys; the row, or undefined when the account has none by that id. */
export async function deletePasskey(tx: Transaction, staffUserId: number, passkeyId: number): Promise<PasskeyRow | undefined> {
  const [row] = await tx.rows(PasskeyRow, `DELETE FROM staff_passkeys WHERE id = $1 AND staff_user_id = $2 RETURNING ${COLUMNS}`, [passkeyId, staffUserId]);
  return row;
}

export async function passkeyByCredential(database: Queryable, credentialId: string): Promise<PasskeyRow | undefined> {
  const [row] = await database.rows(PasskeyRow, `SELECT ${COLUMNS} FROM staff_passkeys WHERE credential_id = $1`, [credentialId]);
  return row;
}

/**
 * Records a use, only if the counter moved past the stored one (or both are 0: passkeys that keep
 * no counter); whether it did.
 */
export async function claimPasskeyUse(database: Queryable, passkeyId: number, use: { counter: number; at: Date; backedUp: boolean }): Promise<boolean> {
  const claimed = await database.rows(
    Id,
    `UPDATE staff_passkeys SET counter = $2, last_used_at = $3, backed_up = $4
     WHERE id = $1 AND (counter < $2 OR (counter = 0 AND $2::bigint = 0)) RETURNING id`,
    [passkeyId, use.counter, use.at, use.backedUp],
  );
  return claimed.length > 0;
}

export async function passkeyOwnerId(database: Queryable, credentialId: string): Promise<number | undefined> {
  const [row] = await database.rows(Owner, 'SELECT staff_user_id FROM staff_passkeys WHERE credential_id = $1', [credentialId]);
  return row?.staff_user_id;
}

export async function holdsPasskey(database: Queryable, staffUserId: number): Promise<boolean> {
  return (await database.rows(Id, 'SELECT id FROM staff_passkeys WHERE staff_user_id = $1 LIMIT 1', [staffUserId])).length > 0;
}

export async function passkeyHolderIds(database: Queryable): Promise<number[]> {
  return (await database.rows(Owner, 'SELECT DISTINCT staff_user_id FROM staff_passkeys')).map((row) => row.staff_user_id);
}

/** Removes every passkey of the account; how many. */
export async function deletePasskeysOf(database: Queryable, staffUserId: number): Promise<number> {
  return (await database.rows(Id, 'DELETE FROM staff_passkeys WHERE staff_user_id = $1 RETURNING id', [staffUserId])).length;
}

// Passkey challenges: each handed out once and claimed once, by one conditional DELETE.

const ChallengeRow = z.object({
  challenge: z.string(),
  purpose: z.enum(['register', 'sign_in', 'reauth']),
  staff_user_id: z.number().nullable(),
  user_handle: z.string().nullable(),
  created_at: timestamp,
  expires_at: timestamp,
});

export async function insertPasskeyChallenge(database: Queryable, challenge: z.infer<typeof ChallengeRow>): Promise<void> {
  await database.execute('DELETE FROM passkey_challenges WHERE expires_at < $1', [challenge.created_at]);
  await database.execute(
    'INSERT INTO passkey_challenges (challenge, purpose, staff_user_id, user_handle, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [challenge.challenge, challenge.purpose, challenge.staff_user_id, challenge.user_handle, challenge.created_at, challenge.expires_at],
  );
}

/** Takes the challenge if it is open, for this purpose and account (null: one issued to nobody). */
export async function claimPasskeyChallenge(
  database: Queryable,
  challenge: string,
  purpose: z.infer<typeof ChallengeRow>['purpose'],
  staffUserId: number | null,
  now: Date,
): Promise<z.infer<typeof ChallengeRow> | undefined> {
  const columns = 'challenge, purpose, staff_user_id, user_handle, created_at, expires_at';
  const [row] =
    staffUserId === null
      ? await database.rows(
          ChallengeRow,
          `DELETE FROM passkey_challenges WHERE challenge = $1 AND purpose = $2 AND expires_at > $3 AND staff_user_id IS NULL RETURNING ${columns}`,
          [challenge, purpose, now],
        )
      : await database.rows(
          ChallengeRow,
          `DELETE FROM passkey_challenges WHERE challenge = $1 AND purpose = $2 AND expires_at > $3 AND staff_user_id = $4 RETURNING ${columns}`,
          [challenge, purpose, now, staffUserId],
        );
  return row;
}
