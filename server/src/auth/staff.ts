import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { staffUsers } from '../db/schema';
import { generatedAvatar, nicknameFromEmail } from './avatar';
import { hashPassword, randomPassword } from './password';

export type StaffUser = typeof staffUsers.$inferSelect;

export function publicProfile(user: StaffUser) {
  return {
    picture: user.picture || generatedAvatar(user.email, user.nickname),
    nickname: user.nickname,
    email: user.email,
  };
}

export async function findStaffByEmail(db: Db, email: string): Promise<StaffUser | undefined> {
  const [row] = await db
    .select()
    .from(staffUsers)
    .where(sql`lower(${staffUsers.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return row;
}

/** Creates the staff user, or sets the password of the one with that e-mail. */
export async function upsertStaffUser(db: Db, input: { email: string; password?: string; nickname?: string; picture?: string | null }) {
  const email = input.email.trim().toLowerCase();
  const password_hash = input.password === undefined ? undefined : await hashPassword(input.password);
  const existing = await findStaffByEmail(db, email);
  if (existing) {
    const [row] = await db
      .update(staffUsers)
      .set({
        ...(password_hash ? { password_hash } : {}),
        ...(input.nickname ? { nickname: input.nickname } : {}),
        ...(input.picture !== undefined ? { picture: input.picture } : {}),
      })
      .where(eq(staffUsers.id, existing.id))
      .returning();
    return { user: row!, created: false };
  }
  const [row] = await db
    .insert(staffUsers)
    .values({ email, password_hash: password_hash ?? null, nickname: input.nickname ?? nicknameFromEmail(email), picture: input.picture ?? null })
    .returning();
  return { user: row!, created: true };
}

export async function listStaffUsers(db: Db) {
  return db.select().from(staffUsers).orderBy(staffUsers.email);
}

export async function removeStaffUser(db: Db, email: string): Promise<boolean> {
  const rows = await db
    .delete(staffUsers)
    .where(sql`lower(${staffUsers.email}) = ${email.trim().toLowerCase()}`)
    .returning({ id: staffUsers.id });
  return rows.length > 0;
}

/**
 * First start: STAFF_EMAIL/STAFF_PASSWORD create or update that account; with neither set and no
 * staff at all, an admin@localhost account gets a random password, returned to be printed once.
 */
export async function ensureStaffAccount(
  db: Db,
  env: { STAFF_EMAIL?: string; STAFF_PASSWORD?: string },
): Promise<{ email: string; generatedPassword?: string } | null> {
  if (env.STAFF_EMAIL && env.STAFF_PASSWORD) {
    await upsertStaffUser(db, { email: env.STAFF_EMAIL, password: env.STAFF_PASSWORD });
    return { email: env.STAFF_EMAIL.toLowerCase() };
  }
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(staffUsers);
  if (count > 0) return null;
  const password = randomPassword();
  await upsertStaffUser(db, { email: 'admin@localhost', password, nickname: 'admin' });
  return { email: 'admin@localhost', generatedPassword: password };
}
