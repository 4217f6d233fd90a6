import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/src/db/client';
import { demoVideos } from '../../server/seed/catalogue';
import { E2E_STAFF, startServer, type RunningServer } from '../support/e2e';

const poll = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> => {
  for (let i = 0; i < 120; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`gave up waiting for ${what}`);
};

describe('the real server takes data in with no configuration', () => {
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('imports the sandbox Mindbody site, and applies a RevenueCat event and the app reports sent with the printed keys', async () => {
    server = await startServer();
    const banner = server.output();
    const webhookKey = /Authorization: (rcwh_\S+)/.exec(banner)?.[1];
    const appKey = /X-App-Key: (app_\S+)/.exec(banner)?.[1];
    expect(webhookKey, banner).toBeDefined();
    expect(appKey, banner).toBeDefined();
    expect(banner).toContain(`RevenueCat webhook: POST ${server.url}/api/webhooks/revenuecat`);

    const login = await fetch(`${server.url}/login`, { method: 'POST', body: new URLSearchParams(E2E_STAFF), redirect: 'manual' });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const status = () => fetch(`${server!.url}/api/admin/v1/mindbody/sync`, { headers: { cookie } }).then((r) => r.json());
    expect(await status()).toMatchObject({ mode: 'sandbox', last_synced_at: null });

    const start = await fetch(`${server.url}/api/admin/v1/mindbody/sync`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(start.status).toBe(202);
    const synced = await poll(status, (s) => s.last_outcome === 'succeeded', 'the Mindbody import');
    expect(synced.sites[0].last_run).toMatchObject({ clients_seen: 320, clients_created: 320 });

    // The sandbox's first client, as RevenueCat and the app would name her.
    const email = 'amara.novak.1@sandbox.mindbody.test';
    const now = Date.now();
    const event = {
      api_version: '1.0',
      event: {
        id: 'evt-e2e-1',
        type: 'INITIAL_PURCHASE',
        app_user_id: 'rc-amara',
        original_app_user_id: 'rc-amara',
        aliases: ['rc-amara'],
        event_timestamp_ms: now,
        product_id: 'studio.premium.monthly',
        entitlement_ids: ['premium'],
        transaction_id: 'tx-e2e-1',
        original_transaction_id: 'tx-e2e-1',
        purchased_at_ms: now,
        expiration_at_ms: now + 30 * 86_400_000,
        subscriber_attributes: { $email: { value: email, updated_at_ms: now } },
        store: 'APP_STORE',
        environment: 'PRODUCTION',
      },
    };
    const webhook = (authorization: string) =>
      fetch(`${server!.url}/api/webhooks/revenuecat`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(event),
      });
    expect((await webhook('wrong')).status).toBe(401);
    const accepted = await webhook(webhookKey!);
    expect([accepted.status, await accepted.json()]).toEqual([200, { received: true, duplicate: false }]);
    expect(await (await webhook(webhookKey!)).json()).toEqual({ received: true, duplicate: true });

    const report = (path: string, body: unknown) =>
      fetch(`${server!.url}/api/app/v1/${path}`, {
        method: 'POST',
        headers: { 'x-app-key': appKey!, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const debug = await report('debug-info', { email, platform: 'android', platform_version: '15', app_version: '3.6.1', network_info: { type: 'wifi' } });
    expect(debug.status).toBe(201);
    const video = demoVideos(150)[0]!;
    const view = await report('video-views', { email, vimeo_video_id: video.vimeo_video_id, viewed_at: new Date(now - 60_000).toISOString() });
    expect(view.status, await view.clone().text()).toBe(201);

    // The webhook's job runs on the queue (its default lane): wait until the client's level shows it.
    const amara = async () => {
      const list = (await (await fetch(`${server!.url}/api/client/v1/clients/1`, { headers: { cookie } })).json()) as {
        clients: { email_address: string | null; vod_access_level: number | null }[];
      };
      return list.clients.find((client) => client.email_address === email);
    };
    await poll(amara, (client) => client?.vod_access_level === 3, 'the RevenueCat event');

    // Then look at what the client's page reads.
    expect(await server.stop()).toBe(0);
    const database = await openDatabase({ dataDir: server.dataDir });
    try {
      const [client] = await database.query<{ id: number; vod_access_level: number; purchase_access_level: number; first_name: string }>(
        "SELECT id, first_name, vod_access_level, purchase_access_level FROM clients WHERE mb_client_id = '5000001' AND mb_site_id = -99",
      );
      expect(client).toMatchObject({ first_name: 'Amara', vod_access_level: 3, purchase_access_level: 3 });
      expect(
        await database.query(
          'SELECT al.name, p.subscription_identifier, p.subscription_status FROM purchases p JOIN access_levels al ON al.id = p.access_level_id WHERE p.client_id = $1',
          [client!.id],
        ),
      ).toEqual([{ name: 'VOD | PREMIUM', subscription_identifier: 'studio.premium.monthly', subscription_status: 'active' }]);
      expect(await database.query('SELECT platform, app_version FROM debug_records WHERE client_id = $1', [client!.id])).toEqual([
        { platform: 'android', app_version: '3.6.1' },
      ]);
      expect(await database.query('SELECT v.title FROM video_views vv JOIN videos v ON v.id = vv.video_id WHERE vv.client_id = $1', [client!.id])).toEqual([
        { title: video.title },
      ]);
      expect(await database.query<{ n: number }>('SELECT count(*)::int AS n FROM mindbody_visits')).toEqual([{ n: expect.any(Number) }]);
    } finally {
      await database.close();
    }
    server = undefined;
  });
});
