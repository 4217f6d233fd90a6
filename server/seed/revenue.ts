import type { Database } from '../src/db/client';
import { refreshRevenue } from '../src/revenue/keep';

const DAY = 86_400_000;
const PRODUCTS = [
  { id: 'studio.premium.monthly', days: 30, price: 14.99 },
  { id: 'studio.premium.yearly', days: 365, price: 119.99 },
  { id: 'studio.premium.weekly', days: 7, price: 4.99 },
] as const;
const REASONS = ['UNSUBSCRIBE', 'UNSUBSCRIBE', 'UNSUBSCRIBE', 'BILLING_ERROR', 'PRICE_INCREASE', 'UNKNOWN'] as const;

/** A deterministic number in [0, 1) from a client and a salt. */
const noise = (i: number, salt: number) => {
  const x = Math.sin(i * 12.9898 + salt * 78.233) * 43758.5453;
  return x - Math.floor(x);
};

type Row = [string, string, string, number, Record<string, unknown>];

/**
 * One paying client's three years of RevenueCat events, as RevenueCat's samples spell them: a trial
 * that converts or lapses, monthly, yearly or weekly renewals, an upgrade now and then, a refund,
 * cancellations with their reasons, an expiry, sometimes a return.
 */
function clientEvents(i: number, userId: string, start: number, now: number): Row[] {
  const rows: Row[] = [];
  let seq = 0;
  const event = (type: string, at: number, fields: Record<string, unknown>) => {
    const id = `seed-${i}-${seq++}`;
    rows.push([
      id,
      type,
      userId,
      at,
      {
        api_version: '1.0',
        event: { id, type, app_user_id: userId, event_timestamp_ms: at, environment: 'PRODUCTION', store: 'APP_STORE', currency: 'USD', ...fields },
      },
    ]);
  };
  let t = start + Math.floor(noise(i, 1) * 3 * 365 * DAY);
  let sub = 0;
  while (t < now) {
    sub++;
    const product = PRODUCTS[noise(i, sub) < 0.6 ? 0 : noise(i, sub) < 0.85 ? 1 : 2]!;
    const original = `${userId}-${sub}`;
    let tx = 0;
    const period = (type: string, from: number, p: { id: string; days: number; price: number }, extra: Record<string, unknown> = {}) => {
      tx++;
      event(type, from, {
        product_id: p.id,
        period_type: 'NORMAL',
        purchased_at_ms: from,
        expiration_at_ms: from + p.days * DAY,
        transaction_id: `${original}-${tx}`,
        original_transaction_id: original,
        price: p.price,
        price_in_purchased_currency: p.price,
        ...extra,
      });
      return from + p.days * DAY;
    };
    if (noise(i, sub + 10) < 0.4) {
      const end = period('INITIAL_PURCHASE', t, { ...product, days: 7, price: 0 }, { period_type: 'TRIAL', price: 0 });
      if (noise(i, sub + 20) < 0.4) {
        event('EXPIRATION', end, {
          transaction_id: `${original}-${tx}`,
          original_transaction_id: original,
          expiration_at_ms: end,
          expiration_reason: 'UNSUBSCRIBE',
        });
        t = end + Math.floor(noise(i, sub + 30) * 200 * DAY);
        continue;
      }
      t = end;
    }
    const renewals = 1 + Math.floor(noise(i, sub + 40) * (product.days === 365 ? 3 : 30));
    let end = t;
    for (let r = 0; r < renewals && end < now; r++) end = period(r === 0 && tx === 0 ? 'INITIAL_PURCHASE' : 'RENEWAL', end, product);
    if (noise(i, sub + 50) < 0.05) {
      event('CANCELLATION', end - product.days * DAY + 3 * DAY, {
        transaction_id: `${original}-${tx}`,
        original_transaction_id: original,
        cancel_reason: 'CUSTOMER_SUPPORT',
        price: -product.price,
      });
    }
    if (end < now) {
      const reason = REASONS[Math.floor(noise(i, sub + 60) * REASONS.length)]!;
      event('CANCELLATION', end - 5 * DAY, { transaction_id: `${original}-${tx}`, original_transaction_id: original, cancel_reason: reason });
      event('EXPIRATION', end, { transaction_id: `${original}-${tx}`, original_transaction_id: original, expiration_at_ms: end, expiration_reason: reason });
    }
    t = end + Math.floor((20 + noise(i, sub + 70) * 400) * DAY);
  }
  return rows;
}

/**
 * Three years of RevenueCat events for a share of the clients, stored as processed webhook
 * deliveries, then the Revenue area's kept figures computed from them (as the backfill does).
 */
export async function seedRevenue(database: Database, options: { now: Date; share?: number; log?: (line: string) => void }) {
  const started = Date.now();
  const now = options.now.getTime();
  const start = now - 3 * 365 * DAY;
  const share = options.share ?? 0.35;
  const clients = await database.query<{ id: number }>('SELECT id FROM clients ORDER BY id');
  const paying = clients.map((c) => Number(c.id)).filter((id) => noise(id, 0) < share);
  let events = 0;
  for (let b = 0; b < paying.length; b += 500) {
    const batch = paying.slice(b, b + 500);
    const rows = batch.flatMap((id) => clientEvents(id, `rc-seed-${id}`, start, now).map((row) => ({ id, row })));
    events += rows.length;
    if (rows.length > 0) {
      await database.query(
        `INSERT INTO revenuecat_events (event_id, type, app_user_id, environment, event_at, body, received_at, state, client_id, processed_at)
         SELECT e, t, u, 'PRODUCTION', to_timestamp(a::double precision / 1000), b, to_timestamp(a::double precision / 1000), 'processed', c, to_timestamp(a::double precision / 1000)
         FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::jsonb[], $6::bigint[]) AS x(e, t, u, a, b, c)
         ON CONFLICT (event_id) DO NOTHING`,
        [
          rows.map((r) => r.row[0]),
          rows.map((r) => r.row[1]),
          rows.map((r) => r.row[2]),
          rows.map((r) => r.row[3]),
          rows.map((r) => JSON.stringify(r.row[4])),
          rows.map((r) => r.id),
        ],
      );
    }
    await refreshRevenue(database, batch);
  }
  options.log?.(`  RevenueCat events: ${events} for ${paying.length} clients, kept figures (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
