import { describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import { revenueCatHarness, SECRET } from '../support/revenuecatHarness';
import { DAY, HOUR } from '../support/revenuecatEvents';
import {
  asDelivered,
  CANCELLATION_REFUND_SAMPLE,
  INITIAL_PURCHASE_SAMPLE,
  REFUND_REVERSED_SAMPLE,
  SUBSCRIPTION_EXTENDED_SAMPLE,
  TEMPORARY_ENTITLEMENT_GRANT_SAMPLE,
} from '../support/revenuecatSamples';
import { createTestApp, signIn } from '../support/server';
import { purchaseEntitlement, type StoredPurchase } from '../../server/src/integrations/revenuecat/entitlement';

const MINUTE = 60_000;
// The user and transaction of RevenueCat's samples (sample-events_1, _13, _14, refund-reversed).
const SAMPLE_USER = '1234567890';
const SAMPLE_TRANSACTION = '123456789012345';
// The sample purchases' entitlement 'pro' maps through '*' to VOD | BASIC (level 2) by default.
const BASIC = 2;
const FREE = 1;

describe.each(testDatabases())('RevenueCat entitlement follows expiry on $name', ({ open }) => {
  const h = revenueCatHarness(open);
  const { clock, post, levels, history, addClient } = h;
  let sequence = 0;

  const sampleClient = () => addClient({ email: 'firstlast@gmail.com', rc: SAMPLE_USER });
  /** Posts a body as RevenueCat does and lets the queue run what is due. */
  const send = async (body: unknown) => {
    const response = await post(body);
    expect(response.statusCode, response.body).toBe(200);
    await h.app.jobs.runDue();
  };
  const delivered = (sample: Parameters<typeof asDelivered>[0], extra?: Record<string, unknown>, eventAt: Date | undefined = clock.now()) =>
    asDelivered(sample, { id: `delivery-${++sequence}`, eventAt, extra });
  /** Moves the clock and runs every job due by then, as the server's poller does. */
  const advanceTo = async (at: Date) => {
    clock.set(at);
    await h.app.jobs.runDue();
  };

  it('stores on every purchase row the entitlement the rule gives, whoever writes the row', async () => {
    const at = (days: number) => new Date(clock.now().getTime() + days * DAY);
    const cases: (StoredPurchase & { sandbox_accepted: boolean })[] = [];
    for (const subscription_status of ['active', 'cancelled', 'billing_issue', 'paused', 'renewed', 'expired', 'refunded', 'revoked', ' Canceled ', null]) {
      for (const expires_at of [at(-3), at(5), null]) {
        for (const grace_period_expires_at of [null, at(-1), at(9)]) {
          for (const rc_event_at of [null, at(-2), at(1)]) {
            cases.push({
              subscription_status,
              purchased_at: at(-40),
              expires_at,
              grace_period_expires_at,
              rc_event_at,
              rc_environment: 'PRODUCTION',
              sandbox_accepted: false,
            });
          }
        }
      }
    }
    cases.push(
      { ...cases[1]!, rc_environment: 'SANDBOX' },
      { ...cases[1]!, rc_environment: 'sandbox', sandbox_accepted: true },
      { ...cases[1]!, purchased_at: null, rc_environment: null },
    );
    for (const c of cases) {
      await h.database.query(
        `INSERT INTO purchases (client_id, subscription_status, purchased_at, expires_at, grace_period_expires_at, rc_event_at, rc_environment, sandbox_accepted)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          h.ada,
          c.subscription_status,
          c.purchased_at?.toISOString() ?? null,
          c.expires_at?.toISOString() ?? null,
          c.grace_period_expires_at?.toISOString() ?? null,
          c.rc_event_at?.toISOString() ?? null,
          c.rc_environment,
          c.sandbox_accepted,
        ],
      );
    }
    const stored = await h.database.query<{ grants_access: boolean; access_ends_at: Date | null }>(
      'SELECT grants_access, access_ends_at FROM purchases ORDER BY id',
    );
    expect(stored).toEqual(cases.map((c) => purchaseEntitlement(c, c.sandbox_accepted)));
  });

  it("RevenueCat's sample INITIAL_PURCHASE, which expired in 2022, is stored and grants nothing", async () => {
    const client = await sampleClient();

    await send(INITIAL_PURCHASE_SAMPLE);

    expect(await history(client)).toMatchObject([
      { subscription_identifier: 'com.subscription.weekly', expires_at: new Date(1659331174000), name: 'VOD | BASIC' },
    ]);
    expect(await levels(client)).toMatchObject({ vod_access_level: FREE, purchase_access_level: null });
  });

  it('a purchase whose expiry passes without an EXPIRATION event stops granting within a minute of it', async () => {
    const client = await sampleClient();
    const purchase = delivered(INITIAL_PURCHASE_SAMPLE);
    await send(purchase);
    expect(await levels(client)).toMatchObject({ vod_access_level: BASIC, purchase_access_level: BASIC });

    const expiry = Number(purchase.event.expiration_at_ms);
    await advanceTo(new Date(expiry - 1000));
    expect(await levels(client)).toMatchObject({ vod_access_level: BASIC });

    await advanceTo(new Date(expiry + MINUTE));
    expect(await levels(client)).toMatchObject({ vod_access_level: FREE, purchase_access_level: null });
  });

  it('ends the access on another instance, started after the expiry passed while none ran, with both polling at once', async () => {
    const client = await sampleClient();
    const purchase = delivered(INITIAL_PURCHASE_SAMPLE);
    await send(purchase);
    // The instance that took the purchase is down over the expiry; another one starts later.
    clock.set(new Date(Number(purchase.event.expiration_at_ms) + DAY));
    const second = await createTestApp(h.database, { clock, env: { REVENUECAT_WEBHOOK_AUTH: SECRET } });
    try {
      await Promise.all([second.jobs.runDue(), h.app.jobs.runDue()]);
      expect(await levels(client)).toMatchObject({ vod_access_level: FREE, purchase_access_level: null });
      const runs = await h.database.query<{ state: string }>(`SELECT state FROM jobs WHERE queue = 'revenuecat.access-expiry'`);
      expect(runs.length).toBeGreaterThan(0);
      expect(runs.every((run) => run.state === 'done')).toBe(true);
    } finally {
      await second.close();
    }
  });

  it('a purchase that ended 10 days ago without its EXPIRATION grants nothing once the job runs', async () => {
    const client = await sampleClient();
    await send(delivered(INITIAL_PURCHASE_SAMPLE, undefined, new Date(clock.now().getTime() - 17 * DAY)));
    expect(await levels(client)).toMatchObject({ vod_access_level: FREE, purchase_access_level: null });
  });

  it('a restore that puts 1,201 clients before the job at once: one run gives each what its purchases give', async () => {
    const now = clock.now().toISOString();
    // Purchases written behind the webhook's back (a restore, an import) flag their clients for the job.
    const [{ first }] = (await h.database.query<{ first: number }>(
      `WITH added AS (
         INSERT INTO clients (first_name, email_address, vod_access_level, admin_updated_expiration)
         SELECT 'Restored', 'restored' || n || '@example.test', 3, CASE WHEN n % 7 = 0 THEN $1::timestamptz + interval '3 days' END
         FROM generate_series(1, 1201) AS n RETURNING id)
       SELECT min(id)::int AS first FROM added`,
      [now],
    )) as [{ first: number }];
    await h.database.query(
      `INSERT INTO purchases (client_id, access_level_id, subscription_status, purchased_at, expires_at, rc_environment)
       SELECT c.id, (SELECT id FROM access_levels WHERE sort_order = ${BASIC}), 'active', $1::timestamptz - interval '40 days',
              CASE (c.id - $2) % 3 WHEN 0 THEN NULL WHEN 1 THEN $1::timestamptz - interval '1 day' ELSE $1::timestamptz + interval '5 days' END,
              'PRODUCTION'
       FROM clients c WHERE c.first_name = 'Restored'`,
      [now, first],
    );

    await advanceTo(new Date(clock.now().getTime() + MINUTE));

    const outcome = await h.database.query<{ kind: number; overridden: boolean; vod: number; purchase: number | null; changes_at: Date | null; n: number }>(
      `SELECT (id - $1) % 3 AS kind, admin_updated_expiration IS NOT NULL AS overridden, vod_access_level AS vod,
              purchase_access_level AS purchase, purchase_access_changes_at AS changes_at, count(*)::int AS n
       FROM clients WHERE first_name = 'Restored' GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2`,
      [first],
    );
    const inFiveDays = new Date(new Date(now).getTime() + 5 * DAY);
    expect(outcome.map(({ n: _n, ...rest }) => rest)).toEqual([
      { kind: 0, overridden: false, vod: BASIC, purchase: BASIC, changes_at: null },
      { kind: 0, overridden: true, vod: 3, purchase: BASIC, changes_at: null },
      { kind: 1, overridden: false, vod: FREE, purchase: null, changes_at: null },
      { kind: 1, overridden: true, vod: 3, purchase: null, changes_at: null },
      { kind: 2, overridden: false, vod: BASIC, purchase: BASIC, changes_at: inFiveDays },
      { kind: 2, overridden: true, vod: 3, purchase: BASIC, changes_at: inFiveDays },
    ]);
    expect(outcome.reduce((sum, row) => sum + row.n, 0)).toBe(1201);
  });

  it('a SANDBOX purchase is stored, shown as Sandbox and changes no level', async () => {
    const client = await sampleClient();

    await send(delivered(INITIAL_PURCHASE_SAMPLE, { environment: 'SANDBOX' }));

    expect(await history(client)).toMatchObject([{ subscription_identifier: 'com.subscription.weekly', subscription_status: 'active' }]);
    expect(await levels(client)).toMatchObject({ vod_access_level: FREE, purchase_access_level: null });
    const cookie = await signIn(h.app);
    const purchases = await h.app.inject({
      method: 'GET',
      url: '/api/client/v1/client-details/-99/none/purchases?email=firstlast%40gmail.com',
      headers: { cookie },
    });
    expect(purchases.statusCode, purchases.body).toBe(200);
    expect(purchases.json().purchases).toMatchObject([{ subscription_identifier: 'com.subscription.weekly', environment: 'SANDBOX' }]);
  });

  it('REFUND_REVERSED gives back what the refund took', async () => {
    const client = await sampleClient();
    const start = clock.now();
    const purchase = delivered(INITIAL_PURCHASE_SAMPLE);
    await send(purchase);
    // RevenueCat's refund sample (sample-events_9), for this purchase: it ends the access at the refund.
    await advanceTo(new Date(start.getTime() + DAY));
    await send(
      delivered(CANCELLATION_REFUND_SAMPLE, {
        app_user_id: SAMPLE_USER,
        transaction_id: SAMPLE_TRANSACTION,
        original_transaction_id: SAMPLE_TRANSACTION,
        purchased_at_ms: purchase.event.purchased_at_ms,
        expiration_at_ms: clock.now().getTime() - MINUTE,
      }),
    );
    expect(await levels(client)).toMatchObject({ vod_access_level: FREE, purchase_access_level: null });

    await advanceTo(new Date(start.getTime() + 2 * DAY));
    await send(delivered(REFUND_REVERSED_SAMPLE, { purchased_at_ms: purchase.event.purchased_at_ms, expiration_at_ms: purchase.event.expiration_at_ms }));

    expect(await levels(client)).toMatchObject({ vod_access_level: BASIC, purchase_access_level: BASIC });
    expect(await history(client)).toMatchObject([{ expires_at: new Date(Number(purchase.event.expiration_at_ms)), subscription_status: 'active' }]);
  });

  it('REFUND_REVERSED of a purchase without an expiry grants it again for good', async () => {
    const client = await sampleClient();
    const lifetime = { expiration_at_ms: null, product_id: 'studio.lifetime' };
    await send(delivered(INITIAL_PURCHASE_SAMPLE, { ...lifetime, type: 'NON_RENEWING_PURCHASE' }));
    await advanceTo(new Date(clock.now().getTime() + HOUR));
    await send(
      delivered(CANCELLATION_REFUND_SAMPLE, {
        ...lifetime,
        app_user_id: SAMPLE_USER,
        transaction_id: SAMPLE_TRANSACTION,
        original_transaction_id: SAMPLE_TRANSACTION,
      }),
    );
    expect(await levels(client)).toMatchObject({ vod_access_level: FREE });

    await advanceTo(new Date(clock.now().getTime() + HOUR));
    await send(delivered(REFUND_REVERSED_SAMPLE, lifetime));
    await advanceTo(new Date(clock.now().getTime() + 400 * DAY));
    expect(await levels(client)).toMatchObject({ vod_access_level: BASIC });
  });

  it("TEMPORARY_ENTITLEMENT_GRANT: RevenueCat's sample (no entitlement, no expiry) is stored and grants nothing", async () => {
    const client = await addClient({ email: 'temp@example.test', rc: '41234567890' });
    await send(delivered(TEMPORARY_ENTITLEMENT_GRANT_SAMPLE));
    const [event] = await h.database.query<{ state: string; client_id: number | null }>('SELECT state, client_id FROM revenuecat_events');
    expect(event).toEqual({ state: 'processed', client_id: client });
    expect(await levels(client)).toMatchObject({ vod_access_level: FREE, purchase_access_level: null });
  });

  it('TEMPORARY_ENTITLEMENT_GRANT with its documented fields grants until its expiry, and never past 24 h', async () => {
    const client = await addClient({ email: 'temp@example.test', rc: '41234567890' });
    const now = clock.now().getTime();
    // The fields event-types-and-fields.mdx guarantees for this type, added to the sample.
    const guaranteed = { purchased_at_ms: now, product_id: 'studio.premium.monthly', entitlement_ids: ['premium'], transaction_id: 'temp-1' };
    await send(delivered(TEMPORARY_ENTITLEMENT_GRANT_SAMPLE, { ...guaranteed, expiration_at_ms: now + 12 * HOUR }));
    expect(await levels(client)).toMatchObject({ vod_access_level: 3 });
    await advanceTo(new Date(now + 12 * HOUR + MINUTE));
    expect(await levels(client)).toMatchObject({ vod_access_level: FREE, purchase_access_level: null });

    await send(
      delivered(TEMPORARY_ENTITLEMENT_GRANT_SAMPLE, {
        ...guaranteed,
        transaction_id: 'temp-2',
        purchased_at_ms: clock.now().getTime(),
        expiration_at_ms: clock.now().getTime() + 30 * DAY,
      }),
    );
    expect(await levels(client)).toMatchObject({ vod_access_level: 3 });
    await advanceTo(new Date(clock.now().getTime() + 24 * HOUR + MINUTE));
    expect(await levels(client)).toMatchObject({ vod_access_level: FREE });
  });

  it('SUBSCRIPTION_EXTENDED moves the expiry', async () => {
    const client = await sampleClient();
    const purchase = delivered(INITIAL_PURCHASE_SAMPLE);
    await send(purchase);
    const expiry = Number(purchase.event.expiration_at_ms);
    await advanceTo(new Date(expiry - DAY));
    await send(delivered(SUBSCRIPTION_EXTENDED_SAMPLE, { purchased_at_ms: purchase.event.purchased_at_ms, expiration_at_ms: expiry + 7 * DAY }));

    await advanceTo(new Date(expiry + MINUTE));
    expect(await levels(client)).toMatchObject({ vod_access_level: BASIC });
    expect(await history(client)).toMatchObject([{ expires_at: new Date(expiry + 7 * DAY) }]);
    await advanceTo(new Date(expiry + 7 * DAY + MINUTE));
    expect(await levels(client)).toMatchObject({ vod_access_level: FREE, purchase_access_level: null });
  });

  it("the dashboard's subscriber count equals the clients on paid levels after a mixed event history", async () => {
    const start = clock.now().getTime();
    const paidClients = async () =>
      (
        await h.database.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM clients c JOIN access_levels al ON al.sort_order = c.vod_access_level WHERE al.is_paid',
        )
      )[0]!.n;
    // Signed in at each look: moving the clock by days ends sessions.
    const dashboard = async () => {
      const response = await h.app.inject({ method: 'GET', url: '/api/stats/v1', headers: { cookie: await signIn(h.app) } });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().result.subscribers as number;
    };
    const user = async (name: string) => addClient({ email: `${name}@example.test`, rc: name });
    const buy = (name: string, extra: Record<string, unknown> = {}) =>
      send(
        delivered(INITIAL_PURCHASE_SAMPLE, {
          app_user_id: name,
          aliases: [name],
          transaction_id: `t-${name}`,
          original_transaction_id: `t-${name}`,
          subscriber_attributes: {},
          ...extra,
        }),
      );

    for (const name of ['active', 'lapses', 'sandbox', 'refunded', 'cancelled', 'expired-sample']) await user(name);
    await buy('active', { expiration_at_ms: start + 60 * DAY });
    await buy('lapses', { expiration_at_ms: start + 2 * DAY });
    await buy('sandbox', { environment: 'SANDBOX' });
    await buy('refunded');
    await buy('cancelled', { expiration_at_ms: start + 3 * DAY });
    // At the sample's own times: it ran out in 2022.
    await send(
      asDelivered(INITIAL_PURCHASE_SAMPLE, {
        id: 'old',
        extra: { app_user_id: 'expired-sample', aliases: [], transaction_id: 't-old', original_transaction_id: 't-old', subscriber_attributes: {} },
      }),
    );
    await send(
      delivered(CANCELLATION_REFUND_SAMPLE, {
        app_user_id: 'refunded',
        aliases: [],
        transaction_id: 't-refunded',
        original_transaction_id: 't-refunded',
        expiration_at_ms: start,
      }),
    );
    await send(
      delivered(INITIAL_PURCHASE_SAMPLE, {
        type: 'CANCELLATION',
        cancel_reason: 'UNSUBSCRIBE',
        app_user_id: 'cancelled',
        aliases: [],
        transaction_id: 't-cancelled',
        original_transaction_id: 't-cancelled',
        subscriber_attributes: {},
        expiration_at_ms: start + 3 * DAY,
      }),
    );

    expect(await paidClients()).toBe(3);
    expect(await dashboard()).toBe(3);
    for (const days of [1, 2.5, 3.5, 61]) {
      await advanceTo(new Date(start + days * DAY));
      const paid = await paidClients();
      expect(await dashboard(), `after ${days} days`).toBe(paid);
    }
    expect(await paidClients()).toBe(0);
  });
});

describe.each(testDatabases())('RevenueCat sandbox accepted on $name', ({ open }) => {
  const h = revenueCatHarness(open, { REVENUECAT_ACCEPT_SANDBOX: 'true' });

  it('REVENUECAT_ACCEPT_SANDBOX=true lets a SANDBOX purchase grant (a staging studio)', async () => {
    const client = await h.addClient({ email: 'firstlast@gmail.com', rc: SAMPLE_USER });
    const body = asDelivered(INITIAL_PURCHASE_SAMPLE, { id: 'sandbox-1', eventAt: h.clock.now(), extra: { environment: 'SANDBOX' } });
    expect((await h.post(body)).statusCode).toBe(200);
    await h.app.jobs.runDue();
    expect(await h.levels(client)).toMatchObject({ vod_access_level: BASIC, purchase_access_level: BASIC });
  });
});
