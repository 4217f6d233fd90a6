import { describe, expect, it } from 'vitest';
import { candidateUserIds, effectOf, entitlementLevel, preferredUserId, readEvent, storedExpiry } from '../../server/src/integrations/revenuecat/eventRules';
import {
  accessAfterPurchases,
  grantsAccess,
  nextAccessChange,
  purchaseAccessLevel,
  purchaseEntitlement,
  type StoredPurchase,
} from '../../server/src/integrations/revenuecat/entitlement';
import { loadConfig } from '../../server/src/config';

const NOW = new Date('2026-11-22T12:00:00Z');
const LATER = new Date('2026-12-22T12:00:00Z');
const EARLIER = new Date('2026-10-22T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('RevenueCat rules', () => {
  it('maps entitlements to the highest level, ignoring case, with * for any other', () => {
    const levels = loadConfig({}).REVENUECAT_ENTITLEMENT_LEVELS;
    expect(levels).toEqual({ basic: 2, premium: 3, '*': 2 });
    expect(entitlementLevel(['Premium'], levels)).toBe(3);
    expect(entitlementLevel(['basic', 'premium'], levels)).toBe(3);
    expect(entitlementLevel(['pro'], levels)).toBe(2);
    expect(entitlementLevel([], levels)).toBeNull();
    const strict = loadConfig({ REVENUECAT_ENTITLEMENT_LEVELS: 'Gold:3, silver:2' }).REVENUECAT_ENTITLEMENT_LEVELS;
    expect(entitlementLevel(['pro'], strict)).toBeNull();
    expect(entitlementLevel(['GOLD'], strict)).toBe(3);
  });

  it('says what each event type does', () => {
    const kinds = ['INITIAL_PURCHASE', 'RENEWAL', 'PRODUCT_CHANGE', 'UNCANCELLATION', 'NON_RENEWING_PURCHASE', 'REFUND_REVERSED'].map((type) =>
      effectOf({ type, cancelReason: null }),
    );
    expect(kinds.every((effect) => effect.kind === 'purchase' && effect.status === 'active')).toBe(true);
    expect(effectOf({ type: 'TEMPORARY_ENTITLEMENT_GRANT', cancelReason: null })).toEqual({ kind: 'purchase', status: 'active', longestMs: DAY });
    expect(effectOf({ type: 'CANCELLATION', cancelReason: 'UNSUBSCRIBE' })).toEqual({ kind: 'purchase', status: 'cancelled' });
    expect(effectOf({ type: 'CANCELLATION', cancelReason: 'BILLING_ERROR' })).toEqual({ kind: 'purchase', status: 'billing_issue' });
    expect(effectOf({ type: 'CANCELLATION', cancelReason: 'CUSTOMER_SUPPORT' })).toEqual({ kind: 'purchase', status: 'refunded' });
    expect(effectOf({ type: 'EXPIRATION', cancelReason: null })).toEqual({ kind: 'purchase', status: 'expired' });
    expect(effectOf({ type: 'SUBSCRIPTION_PAUSED', cancelReason: null })).toEqual({ kind: 'purchase', status: 'paused' });
    expect(effectOf({ type: 'SUBSCRIPTION_EXTENDED', cancelReason: null })).toEqual({ kind: 'purchase', status: null });
    expect(effectOf({ type: 'TRANSFER', cancelReason: null })).toEqual({ kind: 'transfer' });
    expect(effectOf({ type: 'TEST', cancelReason: null })).toEqual({ kind: 'test' });
    expect(effectOf({ type: 'EXPERIMENT_ENROLLMENT', cancelReason: null })).toEqual({ kind: 'none' });
  });

  it('caps a temporary grant at 24 hours after its event, and keeps other expiries as sent', () => {
    expect(storedExpiry({ expiresAt: LATER, eventAt: NOW }, DAY, NOW)).toEqual(new Date(NOW.getTime() + DAY));
    expect(storedExpiry({ expiresAt: null, eventAt: NOW }, DAY, NOW)).toEqual(new Date(NOW.getTime() + DAY));
    expect(storedExpiry({ expiresAt: new Date(NOW.getTime() + HOUR), eventAt: NOW }, DAY, NOW)).toEqual(new Date(NOW.getTime() + HOUR));
    expect(storedExpiry({ expiresAt: null, eventAt: NOW }, undefined, NOW)).toBeNull();
  });

  const stored = (status: string | null, expires_at: Date | null, more: Partial<StoredPurchase> = {}): StoredPurchase => ({
    subscription_status: status,
    purchased_at: EARLIER,
    expires_at,
    grace_period_expires_at: null,
    rc_event_at: EARLIER,
    rc_environment: 'PRODUCTION',
    ...more,
  });

  it('entitles until the expiry (or the later grace end) whatever the status, and a purchase without expiry for good', () => {
    for (const status of ['active', 'paused', 'billing_issue', 'cancelled', 'renewed']) {
      expect(purchaseEntitlement(stored(status, LATER), false), status).toEqual({ grants_access: true, access_ends_at: LATER });
    }
    expect(purchaseEntitlement(stored('active', EARLIER), false)).toEqual({ grants_access: true, access_ends_at: EARLIER });
    expect(purchaseEntitlement(stored('billing_issue', EARLIER, { grace_period_expires_at: LATER }), false).access_ends_at).toEqual(LATER);
    expect(purchaseEntitlement(stored('active', LATER, { grace_period_expires_at: EARLIER }), false).access_ends_at).toEqual(LATER);
    expect(purchaseEntitlement(stored('active', null), false)).toEqual({ grants_access: true, access_ends_at: null });
  });

  it('ends an expired or refunded purchase no later than its event, and never entitles unknown statuses', () => {
    expect(purchaseEntitlement(stored('expired', LATER, { rc_event_at: NOW }), false).access_ends_at).toEqual(NOW);
    expect(purchaseEntitlement(stored('expired', EARLIER, { rc_event_at: NOW }), false).access_ends_at).toEqual(EARLIER);
    expect(purchaseEntitlement(stored('refunded', null, { rc_event_at: NOW }), false).access_ends_at).toEqual(NOW);
    expect(purchaseEntitlement(stored('expired', LATER, { rc_event_at: null }), false).access_ends_at).toEqual(LATER);
    expect(purchaseEntitlement(stored('expired', null, { rc_event_at: null }), false).access_ends_at).toEqual(EARLIER);
    // A refund recorded before the webhook stored event times: taken as never having given access.
    expect(purchaseEntitlement(stored('refunded', LATER, { rc_event_at: null }), false).access_ends_at).toEqual(EARLIER);
    expect(purchaseEntitlement(stored('revoked', LATER), false).grants_access).toBe(false);
    expect(purchaseEntitlement(stored(null, LATER), false).grants_access).toBe(false);
  });

  it('refuses SANDBOX purchases unless the studio accepts them', () => {
    expect(purchaseEntitlement(stored('active', LATER, { rc_environment: 'SANDBOX' }), false).grants_access).toBe(false);
    expect(purchaseEntitlement(stored('active', LATER, { rc_environment: ' sandbox ' }), false).grants_access).toBe(false);
    expect(purchaseEntitlement(stored('active', LATER, { rc_environment: 'SANDBOX' }), true).grants_access).toBe(true);
    expect(purchaseEntitlement(stored('active', LATER, { rc_environment: null }), false).grants_access).toBe(true);
  });

  it('gives the highest level entitling at a moment, and the next moment that may change it', () => {
    const purchase = (level: number, access_ends_at: Date | null, purchased_at: Date | null = EARLIER, grants_access = true) => ({
      level,
      access_ends_at,
      purchased_at,
      grants_access,
    });
    expect(grantsAccess(purchase(3, LATER), NOW)).toBe(true);
    expect(grantsAccess(purchase(3, NOW), NOW)).toBe(false);
    expect(grantsAccess(purchase(3, null), NOW)).toBe(true);
    expect(grantsAccess(purchase(3, null, LATER), NOW)).toBe(false);
    expect(grantsAccess(purchase(3, LATER, EARLIER, false), NOW)).toBe(false);
    expect(purchaseAccessLevel([purchase(2, LATER), purchase(3, EARLIER), purchase(3, LATER, EARLIER, false)], NOW)).toBe(2);
    expect(purchaseAccessLevel([purchase(3, EARLIER)], NOW)).toBeNull();
    const soon = new Date(NOW.getTime() + HOUR);
    expect(nextAccessChange([purchase(2, LATER), purchase(3, soon), purchase(3, EARLIER)], NOW)).toEqual(soon);
    expect(nextAccessChange([purchase(2, LATER, soon)], NOW)).toEqual(soon);
    expect(nextAccessChange([purchase(2, null), purchase(3, soon, EARLIER, false)], NOW)).toBeNull();
  });

  it('changes the effective level only when no admin override is running', () => {
    expect(accessAfterPurchases({ vod_access_level: 1, admin_updated_expiration: null }, 3, 1, NOW)).toEqual({ purchase_access_level: 3, vod_access_level: 3 });
    expect(accessAfterPurchases({ vod_access_level: 2, admin_updated_expiration: LATER }, 3, 1, NOW)).toEqual({
      purchase_access_level: 3,
      vod_access_level: 2,
    });
    expect(accessAfterPurchases({ vod_access_level: 2, admin_updated_expiration: EARLIER }, null, 1, NOW)).toEqual({
      purchase_access_level: null,
      vod_access_level: 1,
    });
  });

  it('reads user ids, the e-mail and the legacy entitlement field', () => {
    const facts = readEvent({
      id: 'e1',
      type: 'renewal',
      app_user_id: 'me@example.test',
      original_app_user_id: '$RCAnonymousID:abc',
      aliases: ['$RCAnonymousID:abc', 'me@example.test', null],
      entitlement_id: 'Premium',
      entitlement_ids: null,
      purchased_at_ms: 1763800000000,
    });
    expect(facts).toMatchObject({ type: 'RENEWAL', email: 'me@example.test', entitlementIds: ['Premium'], purchasedAt: new Date(1763800000000) });
    expect(candidateUserIds(facts)).toEqual(['me@example.test', '$RCAnonymousID:abc']);
    expect(preferredUserId({ appUserId: '$RCAnonymousID:x', originalAppUserId: null, aliases: ['$RCAnonymousID:x', 'user-9'] })).toBe('user-9');
  });
});
