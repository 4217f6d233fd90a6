// Which of our client rows are one Mindbody client, and what a merged row keeps. Pure rules: the
// store (merge.ts) applies them; docs/integrations.md states them for the studio.

/** The client fields a merge decides; the Mindbody fields (names, e-mail, ids) come from Mindbody. */
export interface MergeableClient {
  id: number;
  vod_access_level: number | null;
  purchase_access_level: number | null;
  admin_updated_expiration: Date | null;
  admin_replaced_access_level: number | null;
  first_login: Date | null;
  revenue_cat_user_id: string | null;
  automated_messages_opt_out: boolean;
  created_at: Date;
}

/**
 * The row that stays when several are one person: the oldest (lowest id). It is the one other
 * systems have known longest (RevenueCat app user ids, links staff bookmarked, audit entries), and
 * every other row's history moves onto it, so no history decides anything.
 */
export function chooseSurvivor(ids: readonly number[]): number {
  if (ids.length === 0) throw new Error('chooseSurvivor needs at least one row');
  return Math.min(...ids);
}

const later = (a: Date | null, b: Date | null) => (a === null ? b : b === null ? a : a >= b ? a : b);
const earlier = (a: Date | null, b: Date | null) => (a === null ? b : b === null ? a : a <= b ? a : b);
const higher = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/**
 * What the surviving row keeps of both: the higher access level (purchases of both rows now count
 * for it), the admin override that runs longer (with the level it replaced), the first sign-in
 * that came first, its own RevenueCat id (the other's when it has none), an opt-out of automated
 * messages from either, and the earlier creation date.
 */
export function mergedClientFields(survivor: MergeableClient, merged: MergeableClient): Omit<MergeableClient, 'id'> {
  const overrideFromMerged = later(survivor.admin_updated_expiration, merged.admin_updated_expiration) !== survivor.admin_updated_expiration;
  const override = overrideFromMerged ? merged : survivor;
  return {
    vod_access_level: higher(survivor.vod_access_level, merged.vod_access_level),
    purchase_access_level: higher(survivor.purchase_access_level, merged.purchase_access_level),
    admin_updated_expiration: override.admin_updated_expiration,
    admin_replaced_access_level: override.admin_replaced_access_level,
    first_login: earlier(survivor.first_login, merged.first_login),
    revenue_cat_user_id: survivor.revenue_cat_user_id ?? merged.revenue_cat_user_id,
    automated_messages_opt_out: survivor.automated_messages_opt_out || merged.automated_messages_opt_out,
    created_at: earlier(survivor.created_at, merged.created_at)!,
  };
}
