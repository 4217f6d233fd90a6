import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client';
import type { StaffUser } from '../staff/queries';
import {
  activeSessions,
  deleteEndedSessions,
  deleteOtherSessions,
  deleteSession,
  deleteSessionById,
  insertSession,
  markSessionVerified,
  sessionVerifiedAt,
  sessionWithUser,
  touchSession,
} from './sessionQueries';

export const SESSION_COOKIE = 'studio_session';
export const IDLE_TIMEOUT_MS = 30 * 60 * 1000;
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
// Refreshing last_seen_at on every request would turn each read into a write.
const TOUCH_AFTER_MS = 60 * 1000;

// Every API call checks its session; at thousands of calls a second that lookup was half the
// database work. A resolved session is trusted for this long in this process. Ending a session
// takes effect at once on the instance that ended it, and within this long on the others.
const RESOLVE_CACHE_MS = 2_000;
const RESOLVE_CACHE_LIMIT = 10_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** What staff see of a session: never the stored id, so a listing cannot be replayed as a cookie. */
export const publicSessionId = (storedId: string) => createHash('sha256').update(`public:${storedId}`).digest('base64url').slice(0, 22);

export interface ActiveSession {
  id: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  ip: string | null;
  user_agent: string | null;
  /** The stored id, for telling which one is the caller's (never sent out). */
  storedId: string;
}

export interface ResolvedSession {
  user: StaffUser;
  sessionId: string;
  verifiedAt: Date;
  /** How the sign-in's second step was made; null when there was none. */
  secondStep: string | null;
}

export interface SessionStore {
  /** `executor` lets sign-in write the session and its audit entry in one transaction. */
  create(staffUserId: number, meta: { ip?: string; userAgent?: string; secondStep?: string }, executor?: Queryable): Promise<string>;
  /** The staff member's sessions that have not expired, most recently used first. */
  listActive(staffUserId: number): Promise<ActiveSession[]>;
  /** Ends one of the staff member's sessions (a stored id from `listActive`); whether it was there. */
  end(staffUserId: number, storedId: string, executor?: Queryable): Promise<boolean>;
  /** Ends every session of the staff member but `keepStoredId` (none kept without it); how many ended. */
  endOthers(staffUserId: number, keepStoredId: string | null, executor?: Queryable): Promise<number>;
  /**
   * Drops what this process remembers of the staff member's sessions, so a changed role or a
   * disabled account counts from the next request (other instances: within RESOLVE_CACHE_MS).
   */
  forgetUser(staffUserId: number): void;
  /** `verifiedAt`: when the staff member last proved who they are in this session (sign-in, re-authentication). */
  resolve(token: string | undefined): Promise<ResolvedSession | null>;
  /**
   * Re-authenticated now: counts for REAUTH_MINUTES. `secondStep`: the proof was a second factor
   * (a passkey just added), which a sign-in without one now has (the owner's rule).
   */
  markVerified(storedId: string, at: Date, secondStep?: string): Promise<void>;
  /** The session's last check as stored (another instance may have re-authenticated it). */
  verifiedAt(storedId: string): Promise<Date | null>;
  destroy(token: string | undefined): Promise<void>;
  purgeExpired(): Promise<number>;
}

/** Sessions live in the database so that restarts and several server instances share them. */
export function createSessionStore(db: Queryable, now: () => Date): SessionStore {
  type Resolved = ResolvedSession & { lastSeenAt: number; expiresAt: number; cachedAt: number };
  const resolved = new Map<string, Resolved>();
  const forget = (predicate: (entry: Resolved) => boolean) => {
    for (const [id, entry] of resolved) if (predicate(entry)) resolved.delete(id);
  };
  const store: SessionStore = {
    async create(staffUserId, meta, executor = db) {
      const token = randomBytes(32).toString('base64url');
      const createdAt = now();
      await insertSession(
        executor,
        {
          id: hashToken(token),
          staff_user_id: staffUserId,
          created_at: createdAt,
          last_seen_at: createdAt,
          verified_at: createdAt,
          second_step: meta.secondStep ?? null,
          expires_at: new Date(createdAt.getTime() + ABSOLUTE_TIMEOUT_MS),
          ip: meta.ip ?? null,
          user_agent: meta.userAgent?.slice(0, 512) ?? null,
        },
        createdAt,
      );
      return token;
    },

    async listActive(staffUserId) {
      const current = now();
      const rows = await activeSessions(db, staffUserId, current, new Date(current.getTime() - IDLE_TIMEOUT_MS));
      return rows.map((row) => ({
        id: publicSessionId(row.id),
        created_at: row.created_at,
        last_seen_at: row.last_seen_at,
        // Whichever comes first: the absolute end, or 30 minutes after it was last used.
        expires_at: new Date(Math.min(row.expires_at.getTime(), row.last_seen_at.getTime() + IDLE_TIMEOUT_MS)),
        ip: row.ip,
        user_agent: row.user_agent,
        storedId: row.id,
      }));
    },

    async end(staffUserId, storedId, executor = db) {
      resolved.delete(storedId);
      return deleteSession(executor, staffUserId, storedId);
    },

    async endOthers(staffUserId, keepStoredId, executor = db) {
      forget((entry) => entry.user.id === staffUserId && entry.sessionId !== keepStoredId);
      return deleteOtherSessions(executor, staffUserId, keepStoredId);
    },

    forgetUser(staffUserId) {
      forget((entry) => entry.user.id === staffUserId);
    },

    async resolve(token) {
      if (!token || token.length > 128) return null;
      const id = hashToken(token);
      const current = now().getTime();
      const cached = resolved.get(id);
      if (
        cached &&
        current - cached.cachedAt < RESOLVE_CACHE_MS &&
        current >= cached.cachedAt &&
        cached.expiresAt > current &&
        current - cached.lastSeenAt < TOUCH_AFTER_MS
      ) {
        return { user: cached.user, sessionId: id, verifiedAt: cached.verifiedAt, secondStep: cached.secondStep };
      }
      resolved.delete(id);
      const row = await sessionWithUser(db, id);
      if (!row) return null;
      const idleFor = current - row.session.last_seen_at.getTime();
      // A disabled account's sessions are deleted when it is disabled; this catches any that slipped past.
      if (row.session.expires_at.getTime() <= current || idleFor >= IDLE_TIMEOUT_MS || row.user.disabled_at) {
        await deleteSessionById(db, id);
        return null;
      }
      let lastSeenAt = row.session.last_seen_at.getTime();
      if (idleFor >= TOUCH_AFTER_MS) {
        await touchSession(db, id, new Date(current));
        lastSeenAt = current;
      }
      if (resolved.size >= RESOLVE_CACHE_LIMIT) resolved.clear();
      const session = { user: row.user, sessionId: id, verifiedAt: row.session.verified_at, secondStep: row.session.second_step };
      resolved.set(id, { ...session, lastSeenAt, expiresAt: row.session.expires_at.getTime(), cachedAt: current });
      return session;
    },

    async markVerified(storedId, at, secondStep) {
      await markSessionVerified(db, storedId, at, secondStep);
      const cached = resolved.get(storedId);
      if (cached) {
        cached.verifiedAt = at;
        cached.secondStep ??= secondStep ?? null;
      }
    },

    async verifiedAt(storedId) {
      return sessionVerifiedAt(db, storedId);
    },

    async destroy(token) {
      if (!token) return;
      resolved.delete(hashToken(token));
      await deleteSessionById(db, hashToken(token));
    },

    async purgeExpired() {
      const current = now();
      forget((entry) => entry.expiresAt <= current.getTime() || current.getTime() - entry.lastSeenAt >= IDLE_TIMEOUT_MS);
      return deleteEndedSessions(db, current, new Date(current.getTime() - IDLE_TIMEOUT_MS));
    },
  };
  return store;
}
