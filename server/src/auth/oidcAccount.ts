import type { Config } from '../config';
import { recordAudit } from '../audit/record';
import type { Database } from '../db/client';
import { OidcRefusal, type OidcProfile } from './oidc';
import { roleFromClaim } from './oidcRoles';
import { upsertStaffUser } from '../staff/accounts';
import { changeStaff, type StaffActor } from '../staff/admin';
import { findStaffByEmail, setOidcSubject, type StaffUser } from '../staff/queries';

/**
 * The account an allowed OIDC sign-in uses. A new one gets the role OIDC_ROLE_MAP gives the
 * person's OIDC_ROLE_CLAIM, else OIDC_DEFAULT_ROLE. With the claim configured an existing account's
 * role follows the identity provider at every sign-in, except that the last active owner stays an
 * owner (recorded); without it the role is the one set on the staff screen. Disabled: refused.
 */
export async function oidcAccount(
  database: Database,
  profile: OidcProfile,
  settings: Pick<NonNullable<Config['oidc']>, 'roleClaim' | 'defaultRole'>,
  meta: { ip: string; at: Date },
): Promise<StaffUser> {
  const mapped = settings.roleClaim && profile.roleClaimValues ? roleFromClaim(profile.roleClaimValues, settings.roleClaim.map) : null;
  const role = mapped ?? settings.defaultRole;
  const existing = await findStaffByEmail(database, profile.email);
  if (existing?.disabled_at) throw new OidcRefusal(`The account ${profile.email} is disabled on this console. Ask an owner to enable it.`);
  if (!existing) {
    return database.transaction(async (tx) => {
      const { user } = await upsertStaffUser(tx, { email: profile.email, nickname: profile.nickname, picture: profile.picture, role });
      await setOidcSubject(tx, user.id, profile.subject);
      await recordAudit(tx, {
        staff: { id: user.id, email: user.email },
        action: 'staff.create',
        target_type: 'staff_user',
        target_id: user.id,
        after: { email: user.email, role, via: 'oidc', ...(settings.roleClaim ? { role_claim: profile.roleClaimValues ?? [] } : {}) },
        ip: meta.ip,
        at: meta.at,
      });
      return { ...user, oidc_subject: profile.subject };
    });
  }
  const { user } = await upsertStaffUser(database, { email: profile.email, nickname: profile.nickname, picture: profile.picture });
  if (user.oidc_subject !== profile.subject) await setOidcSubject(database, user.id, profile.subject);
  if (!settings.roleClaim || role === user.role) return user;
  const actor: StaffActor = { staff: { id: user.id, email: user.email }, ip: meta.ip, at: meta.at, via: 'oidc' };
  const result = await changeStaff(database, user.id, { role }, actor, { keepLastOwner: true });
  if (result.keptAsLastOwner) {
    await recordAudit(database, {
      ...actor,
      action: 'staff.update',
      target_type: 'staff_user',
      target_id: user.id,
      before: { email: user.email, role: user.role },
      after: { email: user.email, role: user.role, not_changed_to: role, reason: 'the last active owner stays an owner', via: 'oidc' },
    });
  }
  return result.after;
}
