import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sessions, staffUsers } from '../db/schema';
import type { StaffUser } from './staff';

export const SESSION_COOKIE = 'studio_session';
export const IDLE_TIMEOUT_MS = 30 * 60 * 1000;
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
// Refreshing last_seen_at on every request would turn each read into a write.
const TOUCH_AFTER_MS = 60 * 1000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export interface SessionStore {
  create(staffUserId: number, meta: { ip?: string; userAgent?: string }): Promise<string>;
  resolve(token: string | undefined): Promise<{ user: StaffUser; sessionId: string } | null>;
  destroy(token: string | undefined): Promise<void>;
  purgeExpired(): Promise<number>;
}

/** Sessions live in the database so that restarts and several server instances share them. */
export function createSessionStore(db: Db, now: () => Date): SessionStore {
  return {
    async create(staffUserId, meta) {
      const token = randomBytes(32).toString('base64url');
      const createdAt = now();
      await db.insert(sessions).values({
        id: hashToken(token),
        staff_user_id: staffUserId,
        created_at: createdAt,
        last_seen_at: createdAt,
        expires_at: new Date(createdAt.getTime() + ABSOLUTE_TIMEOUT_MS),
        ip: meta.ip ?? null,
        user_agent: meta.userAgent?.slice(0, 512) ?? null,
      });
      await db.update(staffUsers).set({ last_sign_in_at: createdAt }).where(eq(staffUsers.id, staffUserId));
      return token;
    },

    async resolve(token) {
      if (!token || token.length > 128) return null;
      const id = hashToken(token);
      const [row] = await db
        .select({ session: sessions, user: staffUsers })
        .from(sessions)
        .innerJoin(staffUsers, eq(staffUsers.id, sessions.staff_user_id))
        .where(eq(sessions.id, id))
        .limit(1);
      if (!row) return null;
      const current = now().getTime();
      const idleFor = current - row.session.last_seen_at.getTime();
      if (row.session.expires_at.getTime() <= current || idleFor >= IDLE_TIMEOUT_MS) {
        await db.delete(sessions).where(eq(sessions.id, id));
        return null;
      }
      if (idleFor >= TOUCH_AFTER_MS) {
        await db.update(sessions).set({ last_seen_at: new Date(current) }).where(eq(sessions.id, id));
      }
      return { user: row.user, sessionId: id };
    },

    async destroy(token) {
      if (!token) return;
      await db.delete(sessions).where(eq(sessions.id, hashToken(token)));
    },

    async purgeExpired() {
      const current = now();
      const removed = await db
        .delete(sessions)
        .where(
          or(
            lt(sessions.expires_at, current),
            lt(sessions.last_seen_at, new Date(current.getTime() - IDLE_TIMEOUT_MS)),
          ),
        )
        .returning({ id: sessions.id });
      return removed.length;
    },
  };
}

export const sessionsOf = (db: Db, staffUserId: number) =>
  db.select().from(sessions).where(and(eq(sessions.staff_user_id, staffUserId)));
