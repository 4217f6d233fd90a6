import { describe, expect, it } from 'vitest';
import { startMindbodySync } from '../../server/src/mindbody/jobs';
import { REVENUECAT_SWEEP } from '../../server/src/revenuecat/events';
import { testDatabases } from '../support/databases';
import { revenueCatHarness, START } from '../support/revenuecatHarness';
import { DAY, HOUR, rcEvent } from '../support/revenuecatEvents';

describe.each(testDatabases())('RevenueCat events find their client on $name', ({ open }) => {
  const h = revenueCatHarness(open);
  const { clock, newcomers, deliver, post, levels, history, statuses, count, addClient } = h;

  it('respects an active admin override: only the purchase-derived level changes until it ends', async () => {
    const held = await addClient({ email: 'held@example.test', vod: 2, overrideUntil: new Date(START.getTime() + 3 * DAY) });
    await deliver('INITIAL_PURCHASE', { email: 'held@example.test', appUserId: 'rc-held' });
    expect(await levels(held)).toMatchObject({ vod_access_level: 2, purchase_access_level: 3 });
    await deliver('EXPIRATION', { email: 'held@example.test', appUserId: 'rc-held' });
    expect(await levels(held)).toMatchObject({ vod_access_level: 2, purchase_access_level: null });

    clock.advance(4 * DAY);
    await deliver('INITIAL_PURCHASE', { email: 'held@example.test', appUserId: 'rc-held', transactionId: 't-after' });
    expect(await levels(held)).toMatchObject({ vod_access_level: 3, purchase_access_level: 3 });
  });

  it('matches clients by app user id, original app user id, aliases, then e-mail', async () => {
    const byApp = await addClient({ email: 'a@example.test', rc: 'app-id' });
    const byOriginal = await addClient({ email: 'b@example.test', rc: 'original-id' });
    const byAlias = await addClient({ email: 'c@example.test', rc: 'alias-id' });
    const byEmail = await addClient({ email: 'D@Example.test' });
    const ids = (app_user_id: string, original: string, aliases: string[], email: string | null, tx: string) =>
      deliver('INITIAL_PURCHASE', { email, transactionId: tx, extra: { app_user_id, original_app_user_id: original, aliases } });

    await ids('app-id', 'original-id', ['alias-id'], 'd@example.test', 'tx-a');
    await ids('unknown-1', 'original-id', ['alias-id'], 'd@example.test', 'tx-b');
    await ids('unknown-2', 'unknown-3', ['unknown-4', 'alias-id'], 'd@example.test', 'tx-c');
    await ids('unknown-5', 'unknown-6', [], 'd@example.test', 'tx-d');

    const owners = await h.database.query<{ rc_transaction_id: string; client_id: number }>(
      'SELECT rc_transaction_id, client_id FROM purchases ORDER BY rc_transaction_id',
    );
    expect(owners).toEqual([
      { rc_transaction_id: 'tx-a', client_id: byApp },
      { rc_transaction_id: 'tx-b', client_id: byOriginal },
      { rc_transaction_id: 'tx-c', client_id: byAlias },
      { rc_transaction_id: 'tx-d', client_id: byEmail },
    ]);
    expect((await levels(byEmail)).revenue_cat_user_id).toBe('unknown-5');
  });

  it('keeps an event nobody matches, and applies it once the client is imported from Mindbody', async () => {
    await deliver('INITIAL_PURCHASE', { email: 'newcomer@example.test', appUserId: 'rc-newcomer' });
    expect(await h.database.query('SELECT state, client_id FROM revenuecat_events')).toEqual([{ state: 'unmatched', client_id: null }]);
    expect(await count('purchases')).toBe(0);

    newcomers.push({ id: '5550001', email: 'newcomer@example.test', first: 'Nova' });
    await startMindbodySync(h.app);
    await h.app.jobs.runDue(); // the import, then the retry of waiting events it queues

    const [client] = await h.database.query<{ id: number; first_name: string; vod_access_level: number; revenue_cat_user_id: string }>(
      "SELECT id, first_name, vod_access_level, revenue_cat_user_id FROM clients WHERE mb_client_id = '5550001'",
    );
    expect(client).toMatchObject({ first_name: 'Nova', vod_access_level: 3, revenue_cat_user_id: 'rc-newcomer' });
    expect(await history(Number(client!.id))).toMatchObject([{ name: 'VOD | PREMIUM', subscription_status: 'active' }]);
    expect(await h.database.query('SELECT state, client_id FROM revenuecat_events')).toEqual([{ state: 'processed', client_id: client!.id }]);
  });

  it('ignores an event older than the one already applied to the purchase', async () => {
    await deliver('INITIAL_PURCHASE');
    const late = rcEvent('CANCELLATION', { at: new Date(START.getTime() + HOUR) });
    clock.advance(2 * HOUR);
    await deliver('EXPIRATION');
    await post(late);
    await h.app.jobs.runDue();
    expect(await statuses()).toEqual(['expired']);
    expect(await levels()).toMatchObject({ vod_access_level: 1 });
  });

  it('retries every waiting event in turn, however many never match', async () => {
    // 600 events of users who will never be clients, older than the one that will match.
    await h.database.query(
      `INSERT INTO revenuecat_events (event_id, type, app_user_id, body, received_at, event_at, state, processed_at)
       SELECT 'evt-stranger-' || g, 'INITIAL_PURCHASE', 'stranger-' || g,
              jsonb_build_object('event', jsonb_build_object('id', 'evt-stranger-' || g, 'type', 'INITIAL_PURCHASE', 'app_user_id', 'stranger-' || g)),
              $1, $2, 'unmatched', $1
       FROM generate_series(1, 600) AS g`,
      [START.toISOString(), new Date(START.getTime() - 10 * DAY).toISOString()],
    );
    await deliver('INITIAL_PURCHASE', { email: 'late@example.test', appUserId: 'rc-late' });
    const late = await addClient({ email: 'late@example.test' });

    for (let sweep = 0; sweep < 2; sweep++) {
      clock.advance(HOUR);
      await h.app.jobs.send(REVENUECAT_SWEEP);
      await h.app.jobs.runDue();
    }

    expect(await statuses(late)).toEqual(['active']);
    expect(await count('revenuecat_events')).toBe(601);
  });
});
