import { describe, expect, it } from 'vitest';
import {
  accessAfterPurchases,
  candidateUserIds,
  effectOf,
  entitlementLevel,
  grantsAccess,
  preferredUserId,
  purchaseAccessLevel,
  readEvent,
} from '../../server/src/integrations/revenuecat/events';
import { loadConfig } from '../../server/src/config';

const NOW = new Date('2026-11-22T12:00:00Z');
const LATER = new Date('2026-12-22T12:00:00Z');
const EARLIER = new Date('2026-10-22T12:00:00Z');

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
    const kinds = ['INITIAL_PURCHASE', 'RENEWAL', 'PRODUCT_CHANGE', 'UNCANCELLATION', 'NON_RENEWING_PURCHASE'].map((type) => effectOf({ type, cancelReason: null }));
    expect(kinds.every((effect) => effect.kind === 'purchase' && effect.status === 'active')).toBe(true);
    expect(effectOf({ type: 'CANCELLATION', cancelReason: 'UNSUBSCRIBE' })).toEqual({ kind: 'purchase', status: 'cancelled' });
    expect(effectOf({ type: 'CANCELLATION', cancelReason: 'BILLING_ERROR' })).toEqual({ kind: 'purchase', status: 'billing_issue' });
    expect(effectOf({ type: 'EXPIRATION', cancelReason: null })).toEqual({ kind: 'purchase', status: 'expired' });
    expect(effectOf({ type: 'SUBSCRIPTION_PAUSED', cancelReason: null })).toEqual({ kind: 'purchase', status: 'paused' });
    expect(effectOf({ type: 'SUBSCRIPTION_EXTENDED', cancelReason: null })).toEqual({ kind: 'purchase', status: null });
    expect(effectOf({ type: 'TRANSFER', cancelReason: null })).toEqual({ kind: 'transfer' });
    expect(effectOf({ type: 'TEST', cancelReason: null })).toEqual({ kind: 'test' });
    expect(effectOf({ type: 'EXPERIMENT_ENROLLMENT', cancelReason: null })).toEqual({ kind: 'none' });
  });

  it('grants while active, paused or in a billing issue, and while cancelled until expiry', () => {
    const purchase = (subscription_status: string, expires_at: Date | null, level = 3) => ({ subscription_status, expires_at, level });
    expect(grantsAccess(purchase('active', EARLIER), NOW)).toBe(true);
    expect(grantsAccess(purchase('paused', EARLIER), NOW)).toBe(true);
    expect(grantsAccess(purchase('billing_issue', EARLIER), NOW)).toBe(true);
    expect(grantsAccess(purchase('cancelled', LATER), NOW)).toBe(true);
    expect(grantsAccess(purchase('cancelled', EARLIER), NOW)).toBe(false);
    expect(grantsAccess(purchase('expired', LATER), NOW)).toBe(false);
    expect(grantsAccess(purchase('renewed', LATER), NOW)).toBe(false);
    expect(purchaseAccessLevel([purchase('active', LATER, 2), purchase('cancelled', LATER, 3), purchase('expired', LATER, 3)], NOW)).toBe(3);
    expect(purchaseAccessLevel([purchase('expired', LATER, 3)], NOW)).toBeNull();
  });

  it('changes the effective level only when no admin override is running', () => {
    expect(accessAfterPurchases({ vod_access_level: 1, admin_updated_expiration: null }, 3, 1, NOW)).toEqual({ purchase_access_level: 3, vod_access_level: 3 });
    expect(accessAfterPurchases({ vod_access_level: 2, admin_updated_expiration: LATER }, 3, 1, NOW)).toEqual({ purchase_access_level: 3, vod_access_level: 2 });
    expect(accessAfterPurchases({ vod_access_level: 2, admin_updated_expiration: EARLIER }, null, 1, NOW)).toEqual({ purchase_access_level: null, vod_access_level: 1 });
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
