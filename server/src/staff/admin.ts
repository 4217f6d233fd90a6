import type { Role } from '@contract/permissions';
import type { StaffAccount, StaffStatus } from '@contract/staff';
import { changedFields, recordAudit, type AuditEntryInput } from '../audit/record';
import type { Database, Queryable, Transaction } from '../db/client';
import { HttpError, notFound } from '../lib/errors';
import { nicknameFromEmail } from './avatar';
import { hashPassword, randomPassword, verifyPassword } from './password';
import {
  deleteSessionsOf,
  deleteStaffUser,
  findStaffByEmail,
  findStaffById,
  insertStaffUser,
  lockForStaffChange,
  passwordHashOf,
  setPasswordHash,
  setRoleAndDisabled,
  type StaffUser,
} from './queries';

/**
 * Ends a staff member's other sessions in the caller's transaction (the session store's `endOthers`,
 * which also drops what this process cached of them); how many ended.
 */
export interface EndsOtherSessions {
  endOthers(staffUserId: number, keepStoredId: string | null, executor: Queryable): Promise<number>;
}

/** Who made a change, for its audit entry: a request's `auditActor`, or `{ staff: null }` for the CLI. */
export type StaffActor = Pick<AuditEntryInput, 'staff' | 'ip' | 'at'> & { via?: 'npm run staff' | 'oidc' };

export const LAST_OWNER = 'There must always be at least one active owner: make another account an owner first.';

// Serialises every change that could take away an owner, across instances: two owners demoting each
// other at the same moment would each still see the other as an owner (read committed), and both
// would succeed. Any constant works; migrations use another.
const STAFF_CHANGE_LOCK = 72_406_035;

const statusOf = (user: Pick<StaffUser, 'disabled_at'>): StaffStatus => (user.disabled_at ? 'disabled' : 'active');

/** Whether the account counts towards "at least one active owner". */
export const isActiveOwner = (account: { role: Role; status: StaffStatus }) => account.role === 'owner' && account.status === 'active';

/** The last-owner rule: a change may not take the only active owner away. */
export function takesLastOwner(before: { role: Role; status: StaffStatus }, after: { role: Role; status: StaffStatus }, otherActiveOwners: number): boolean {
  return isActiveOwner(before) && !isActiveOwner(after) && otherActiveOwners === 0;
}

/** `holdsPasskey`: a passkey counts as two-step as much as an authenticator app does. */
export function viewStaff(user: StaffUser, holdsPasskey = false): StaffAccount {
  return {
    id: user.id,
    email: user.email,
    nickname: user.nickname,
    role: user.role,
    status: statusOf(user),
    last_sign_in_at: user.last_sign_in_at?.toISOString() ?? null,
    created_at: user.created_at.toISOString(),
    has_password: Boolean(user.password_hash),
    signs_in_with_oidc: Boolean(user.oidc_subject),
    two_step: Boolean(user.two_step_at) || holdsPasskey,
  };
}

const via = (actor: StaffActor) => (actor.via ? { via: actor.via } : {});
const actorOnly = ({ staff, ip, at }: StaffActor) => ({ staff, ip, at });

async function lockStaffChanges(tx: Transaction, targetId: number): Promise<{ target: StaffUser; otherActiveOwners: number }> {
  const { target, otherActiveOwners } = await lockForStaffChange(tx, STAFF_CHANGE_LOCK, targetId);
  if (!target) throw notFound(`No staff account with id ${targetId}.`);
  return { target, otherActiveOwners };
}

export interface StaffChangeResult {
  before: StaffUser;
  after: StaffUser;
  /** Sessions ended because the account was disabled. */
  endedSessions: number;
  /** `keepLastOwner`: the role change was not made because it would have left no active owner. */
  keptAsLastOwner?: boolean;
}

/**
 * Changes an account's role and/or status in one transaction under the staff lock: refused (409)
 * when it would leave no active owner, or with `keepLastOwner` (an OIDC sign-in) not made.
 * Disabling deletes the account's sessions in the same transaction. Audited as `staff.update`.
 * Call `app.sessions.forgetUser(id)` afterwards so this process stops trusting what it cached.
 */
export async function changeStaff(
  database: Database,
  targetId: number,
  change: { role?: Role; status?: StaffStatus },
  actor: StaffActor,
  options: { keepLastOwner?: boolean } = {},
): Promise<StaffChangeResult> {
  return database.transaction(async (tx) => {
    const { target, otherActiveOwners } = await lockStaffChanges(tx, targetId);
    const before = { role: target.role, status: statusOf(target) };
    const next = { role: change.role ?? before.role, status: change.status ?? before.status };
    if (takesLastOwner(before, next, otherActiveOwners)) {
      if (!options.keepLastOwner) throw new HttpError(409, LAST_OWNER);
      return { before: target, after: target, endedSessions: 0, keptAsLastOwner: true };
    }
    if (next.role === before.role && next.status === before.status) return { before: target, after: target, endedSessions: 0 };
    const disabledAt = next.status === before.status ? target.disabled_at : next.status === 'disabled' ? (actor.at ?? new Date()) : null;
    const after = await setRoleAndDisabled(tx, targetId, next.role, disabledAt);
    const ended = next.status === 'disabled' && before.status === 'active' ? await deleteSessionsOf(tx, targetId) : 0;
    const changed = changedFields(before, next);
    await recordAudit(tx, {
      ...actorOnly(actor),
      action: 'staff.update',
      target_type: 'staff_user',
      target_id: targetId,
      before: { email: target.email, ...changed.before },
      after: { email: target.email, ...changed.after, ...(ended ? { sessions_ended: ended } : {}), ...via(actor) },
    });
    return { before: target, after, endedSessions: ended };
  });
}

export async function getStaff(database: Queryable, id: number): Promise<StaffUser> {
  const row = await findStaffById(database, id);
  if (!row) throw notFound(`No staff account with id ${id}.`);
  return row;
}

/**
 * A staff member's own new password, after `current` was checked against what is stored now (not
 * the session's cached copy): the other sessions end in the same transaction, audited as
 * `staff.password_change`. `null`: the current password was wrong.
 */
export async function changeOwnPassword(
  database: Database,
  sessionStore: EndsOtherSessions,
  input: { staffId: number; keepSessionId: string | null; current: string; next: string },
  actor: StaffActor,
): Promise<{ endedSessions: number } | null> {
  if (!(await verifyPassword(input.current, await passwordHashOf(database, input.staffId)))) return null;
  const password_hash = await hashPassword(input.next);
  return database.transaction(async (tx) => {
    await setPasswordHash(tx, input.staffId, password_hash);
    const endedSessions = await sessionStore.endOthers(input.staffId, input.keepSessionId, tx);
    await recordAudit(tx, {
      ...actorOnly(actor),
      action: 'staff.password_change',
      target_type: 'staff_user',
      target_id: input.staffId,
      after: { sessions_ended: endedSessions },
    });
    return { endedSessions };
  });
}

/** A new account with a generated password (or the given one), audited as `staff.create`; 409 if the e-mail is taken. */
export async function createStaff(
  database: Database,
  input: { email: string; role: Role; nickname?: string; password?: string },
  actor: StaffActor,
): Promise<{ user: StaffUser; password: string }> {
  const email = input.email.trim().toLowerCase();
  const password = input.password ?? randomPassword();
  const password_hash = await hashPassword(password);
  return database.transaction(async (tx) => {
    if (await findStaffByEmail(tx, email)) throw new HttpError(409, `A staff account with the e-mail ${email} already exists.`);
    const user = await insertStaffUser(tx, { email, role: input.role, nickname: input.nickname ?? nicknameFromEmail(email), password_hash });
    await recordAudit(tx, {
      ...actorOnly(actor),
      action: 'staff.create',
      target_type: 'staff_user',
      target_id: user.id,
      after: { email, role: input.role, ...via(actor) },
    });
    return { user, password };
  });
}

/**
 * Sets a new password (generated unless given) and ends every session of the account: whoever
 * knew the old one is out. Audited as `staff.password_reset` (never the password itself).
 */
export async function resetStaffPassword(
  database: Database,
  targetId: number,
  actor: StaffActor,
  chosen?: string,
): Promise<{ user: StaffUser; password: string; endedSessions: number }> {
  const password = chosen ?? randomPassword();
  const password_hash = await hashPassword(password);
  return database.transaction(async (tx) => {
    const user = await setPasswordHash(tx, targetId, password_hash);
    if (!user) throw notFound(`No staff account with id ${targetId}.`);
    const ended = await deleteSessionsOf(tx, targetId);
    await recordAudit(tx, {
      ...actorOnly(actor),
      action: 'staff.password_reset',
      target_type: 'staff_user',
      target_id: targetId,
      after: { email: user.email, sessions_ended: ended, ...via(actor) },
    });
    return { user, password, endedSessions: ended };
  });
}

/** Deletes an account (its sessions go with it), unless it is the last active owner. Audited as `staff.remove`. */
export async function removeStaff(database: Database, email: string, actor: StaffActor): Promise<StaffUser | null> {
  const found = await findStaffByEmail(database, email);
  if (!found) return null;
  return database.transaction(async (tx) => {
    const { target, otherActiveOwners } = await lockStaffChanges(tx, found.id);
    if (takesLastOwner({ role: target.role, status: statusOf(target) }, { role: target.role, status: 'disabled' }, otherActiveOwners)) {
      throw new HttpError(409, LAST_OWNER);
    }
    await deleteStaffUser(tx, target.id);
    await recordAudit(tx, {
      ...actorOnly(actor),
      action: 'staff.remove',
      target_type: 'staff_user',
      target_id: target.id,
      before: { email: target.email, role: target.role, status: statusOf(target) },
      after: null,
    });
    return target;
  });
}
