import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { revenueCatHarness, SECRET, START } from '../support/revenuecatHarness';
import { DAY, HOUR, rcEvent } from '../support/revenuecatEvents';

describe.each(testDatabases())('RevenueCat webhooks on $name', ({ open }) => {
  const h = revenueCatHarness(open);
  const { clock, deliver, post, levels, history, statuses, count, addClient } = h;

  it('refuses a missing or wrong Authorization header with 401 and stores nothing', async () => {
    const body = rcEvent('INITIAL_PURCHASE', { at: START });
    for (const authorization of [null, '', 'wrong-secret', `Bearer ${SECRET}`, `${SECRET} `]) {
      const response = await post(body, authorization);
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.json()).toEqual({ message: 'Missing or wrong Authorization header' });
    }
    expect(await count('revenuecat_events')).toBe(0);
    expect(await count('jobs')).toBe(0);
  });

  it('stores the event and answers 200 at once; the purchase and the level change in the job after', async () => {
    const body = rcEvent('INITIAL_PURCHASE', { at: START, purchasedAt: new Date(START.getTime() - HOUR), expiresAt: new Date(START.getTime() + 30 * DAY) });

    const response = await post(body);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true, duplicate: false });
    const [stored] = await h.database.query<{ state: string; body: unknown }>('SELECT state, body FROM revenuecat_events');
    expect(stored).toEqual({ state: 'received', body });
    expect(await count('purchases')).toBe(0);
    expect((await levels()).vod_access_level).toBe(1);

    await h.app.jobs.runDue();

    expect(await history()).toEqual([
      {
        revenue_cat_user_id: 'rc-ada',
        name: 'VOD | PREMIUM',
        subscription_identifier: 'studio.premium.monthly',
        upsell_source: 'default_offering',
        purchased_at: new Date(START.getTime() - HOUR),
        expires_at: new Date(START.getTime() + 30 * DAY),
        subscription_status: 'active',
      },
    ]);
    expect(await levels()).toEqual({ vod_access_level: 3, purchase_access_level: 3, revenue_cat_user_id: 'rc-ada' });
    const [processed] = await h.database.query('SELECT state, client_id FROM revenuecat_events');
    expect(processed).toEqual({ state: 'processed', client_id: h.ada });
  });

  it('stores an event delivered five times once, with one effect', async () => {
    const body = rcEvent('INITIAL_PURCHASE', { at: START, entitlement: 'basic' });
    const answers = [];
    for (let i = 0; i < 5; i++) {
      answers.push((await post(body)).json());
      await h.app.jobs.runDue();
    }
    expect(answers).toEqual([{ received: true, duplicate: false }, ...Array(4).fill({ received: true, duplicate: true })]);
    expect(await count('revenuecat_events')).toBe(1);
    expect(await count('jobs')).toBe(1);
    expect(await statuses()).toEqual(['active']);
    expect(await levels()).toMatchObject({ vod_access_level: 2, purchase_access_level: 2 });
  });

  it('RENEWAL adds the new period to the history and keeps access', async () => {
    await deliver('INITIAL_PURCHASE', { transactionId: 't-1', purchasedAt: new Date(START.getTime() - 31 * DAY) });
    await deliver('RENEWAL', { transactionId: 't-2', originalTransactionId: 't-1', purchasedAt: new Date(START.getTime() - HOUR) });
    expect(await statuses()).toEqual(['renewed', 'active']);
    expect(await levels()).toMatchObject({ vod_access_level: 3, purchase_access_level: 3 });
  });

  it('CANCELLATION keeps access until the expiry it carries, then the level drops', async () => {
    const expiresAt = new Date(START.getTime() + 5 * DAY);
    await deliver('INITIAL_PURCHASE', { expiresAt });
    await deliver('CANCELLATION', { expiresAt });
    expect(await statuses()).toEqual(['cancelled']);
    expect(await levels()).toMatchObject({ vod_access_level: 3, purchase_access_level: 3 });

    // No EXPIRATION comes: the minute job notices the expiry.
    clock.advance(5 * DAY + HOUR);
    await h.app.jobs.runDue();
    expect(await levels()).toMatchObject({ vod_access_level: 1, purchase_access_level: null });
  });

  it('a refund (CANCELLATION with an expiry already past) revokes at once', async () => {
    await deliver('INITIAL_PURCHASE');
    await deliver('CANCELLATION', { expiresAt: new Date(START.getTime() - 1000), extra: { cancel_reason: 'CUSTOMER_SUPPORT', price: -14.99 } });
    expect(await levels()).toMatchObject({ vod_access_level: 1, purchase_access_level: null });
  });

  it('UNCANCELLATION makes a cancelled subscription active again', async () => {
    await deliver('INITIAL_PURCHASE');
    await deliver('CANCELLATION');
    await deliver('UNCANCELLATION');
    expect(await statuses()).toEqual(['active']);
    expect(await levels()).toMatchObject({ vod_access_level: 3 });
  });

  it('EXPIRATION revokes the purchase-derived level', async () => {
    await deliver('INITIAL_PURCHASE');
    await deliver('EXPIRATION');
    expect(await statuses()).toEqual(['expired']);
    expect(await levels()).toMatchObject({ vod_access_level: 1, purchase_access_level: null });
  });

  it('SUBSCRIPTION_PAUSED does not revoke; the EXPIRATION that follows does', async () => {
    await deliver('INITIAL_PURCHASE');
    await deliver('SUBSCRIPTION_PAUSED');
    expect(await statuses()).toEqual(['paused']);
    expect(await levels()).toMatchObject({ vod_access_level: 3 });
    await deliver('EXPIRATION', { extra: { expiration_reason: 'SUBSCRIPTION_PAUSED' } });
    expect(await levels()).toMatchObject({ vod_access_level: 1 });
  });

  it('BILLING_ISSUE and a billing-error CANCELLATION keep access through the grace period', async () => {
    await deliver('INITIAL_PURCHASE');
    await deliver('BILLING_ISSUE');
    await deliver('CANCELLATION', { expiresAt: new Date(START.getTime() - HOUR), extra: { cancel_reason: 'BILLING_ERROR' } });
    expect(await statuses()).toEqual(['billing_issue']);
    expect(await levels()).toMatchObject({ vod_access_level: 3 });
  });

  it('PRODUCT_CHANGE grants the level of the entitlement it carries', async () => {
    await deliver('INITIAL_PURCHASE', { entitlement: 'basic', productId: 'studio.basic.monthly' });
    expect(await levels()).toMatchObject({ vod_access_level: 2 });
    await deliver('PRODUCT_CHANGE', { entitlement: 'premium', productId: 'studio.basic.monthly', extra: { new_product_id: 'studio.premium.monthly' } });
    expect(await history()).toMatchObject([{ name: 'VOD | PREMIUM', subscription_identifier: 'studio.premium.monthly', subscription_status: 'active' }]);
    expect(await levels()).toMatchObject({ vod_access_level: 3 });
  });

  it('NON_RENEWING_PURCHASE grants without an expiry', async () => {
    await deliver('NON_RENEWING_PURCHASE', { entitlement: 'basic', productId: 'studio.basic.lifetime' });
    expect(await history()).toMatchObject([{ name: 'VOD | BASIC', expires_at: null, subscription_status: 'active' }]);
    expect(await levels()).toMatchObject({ vod_access_level: 2 });
  });

  it('TRANSFER moves the purchases and the access to the receiving client', async () => {
    await h.database.query("UPDATE clients SET revenue_cat_user_id = 'rc-from' WHERE id = $1", [h.ada]);
    const bob = await addClient({ email: 'bob@example.test', rc: 'rc-to' });
    await deliver('INITIAL_PURCHASE', { appUserId: 'rc-from' });
    expect(await levels(h.ada)).toMatchObject({ vod_access_level: 3 });

    await deliver('TRANSFER');

    expect(await history(h.ada)).toEqual([]);
    expect(await history(bob)).toMatchObject([{ revenue_cat_user_id: 'rc-to', subscription_status: 'active' }]);
    expect(await levels(h.ada)).toMatchObject({ vod_access_level: 1, purchase_access_level: null });
    expect(await levels(bob)).toMatchObject({ vod_access_level: 3, purchase_access_level: 3 });
  });

  it('accepts TEST and logs it, changing nothing', async () => {
    await deliver('TEST');
    const [event] = await h.database.query('SELECT type, state, note FROM revenuecat_events');
    expect(event).toEqual({ type: 'TEST', state: 'processed', note: 'test event: logged' });
    expect(await count('purchases')).toBe(0);
  });

  it('accepts and stores unknown event types and unknown fields as sent', async () => {
    const unknown = {
      api_version: '2.7',
      event: { id: 'evt-future-1', type: 'LOYALTY_BADGE_EARNED', badge: { tier: 'gold', since: 1763800000000 } },
      delivered_by: 'rc',
    };
    const response = await post(unknown);
    await h.app.jobs.runDue();
    expect(response.statusCode).toBe(200);
    const [stored] = await h.database.query('SELECT type, state, body FROM revenuecat_events');
    expect(stored).toMatchObject({ type: 'LOYALTY_BADGE_EARNED', state: 'ignored', body: unknown });

    await deliver('INITIAL_PURCHASE', { extra: { shiny_new_field: { nested: [1, 2] } } });
    expect(await levels()).toMatchObject({ vod_access_level: 3 });
  });

  it('answers 400 to a body without event.id and stores nothing', async () => {
    const response = await post({ api_version: '1.0', event: { type: 'INITIAL_PURCHASE' } });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/body\.event\.id/);
    expect(await count('revenuecat_events')).toBe(0);
  });
});
