import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/config';
import type { Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { createTestApp } from '../support/server';

const MINDBODY = {
  MINDBODY_API_KEY: 'key',
  MINDBODY_SITE_IDS: '-99, 5739',
  MINDBODY_STAFF_USERNAME: 'owner',
  MINDBODY_STAFF_PASSWORD: 'secret',
};

const failure = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
};

describe('data-in configuration', () => {
  it('runs the sandboxes with no configuration', () => {
    const config = loadConfig({});
    expect(config.mindbody).toBeNull();
    expect(config.MINDBODY_API_URL).toBe('https://api.mindbodyonline.com/public/v6');
    expect(config.MINDBODY_SYNC_INTERVAL_MINUTES).toBe(60);
    expect(config.MINDBODY_VISITS_DAYS).toBe(30);
    expect(config.REVENUECAT_WEBHOOK_AUTH).toBeUndefined();
    expect(config.APP_API_KEY).toBeUndefined();
    expect(config.APP_RATE_LIMIT_PER_MINUTE).toBe(60);
  });

  it('uses the live Mindbody client once all its credentials are set', () => {
    expect(loadConfig({ ...MINDBODY, MINDBODY_API_URL: 'http://127.0.0.1:9/public/v6/' }).mindbody).toEqual({
      apiUrl: 'http://127.0.0.1:9/public/v6',
      apiKey: 'key',
      siteIds: [-99, 5739],
      staffUsername: 'owner',
      staffPassword: 'secret',
    });
    const { MINDBODY_SITE_IDS: _, ...oneSite } = MINDBODY;
    expect(loadConfig({ ...oneSite, MINDBODY_SITE_ID: '123' }).mindbody?.siteIds).toEqual([123]);
  });

  it.each([
    [{ MINDBODY_API_KEY: 'key' }, 'MINDBODY_SITE_IDS'],
    [{ ...MINDBODY, MINDBODY_STAFF_PASSWORD: '' }, 'MINDBODY_STAFF_PASSWORD'],
    [{ ...MINDBODY, MINDBODY_SITE_IDS: 'main' }, 'MINDBODY_SITE_IDS'],
    [{ MINDBODY_VISITS_DAYS: '400' }, 'MINDBODY_VISITS_DAYS'],
    [{ ...MINDBODY, MINDBODY_API_URL: 'http://api.mindbodyonline.com/public/v6' }, 'MINDBODY_API_URL'],
    [{ REVENUECAT_WEBHOOK_AUTH: 'short' }, 'REVENUECAT_WEBHOOK_AUTH'],
    [{ REVENUECAT_ENTITLEMENT_LEVELS: 'premium=3' }, 'REVENUECAT_ENTITLEMENT_LEVELS'],
    [{ APP_API_KEY: 'short' }, 'APP_API_KEY'],
    [{ APP_RATE_LIMIT_PER_MINUTE: '0' }, 'APP_RATE_LIMIT_PER_MINUTE'],
  ])('names the bad variable: %j', (env, variable) => {
    const error = failure(env);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.variable).toBe(variable);
  });
});

describe.each(testDatabases())('integration keys on $name', ({ open }) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database.close();
  });

  it('generates the webhook and app keys once, keeps them in the database and never leaves the endpoints open', async () => {
    const first = await createTestApp(database);
    const keys = first.integrationKeys;
    expect(keys.revenuecatWebhookAuth).toMatchObject({
      source: 'generated',
      variable: 'REVENUECAT_WEBHOOK_AUTH',
      value: expect.stringMatching(/^rcwh_.{32}$/),
    });
    expect(keys.appApiKey).toMatchObject({ source: 'generated', variable: 'APP_API_KEY', value: expect.stringMatching(/^app_.{32}$/) });
    expect(first.mindbody.mode).toBe('sandbox');
    await first.close();

    const restarted = await createTestApp(database);
    expect(restarted.integrationKeys).toEqual(keys);
    const body = { api_version: '1.0', event: { id: 'evt-generated-key', type: 'TEST' } };
    const refused = await restarted.inject({ method: 'POST', url: '/api/webhooks/revenuecat', payload: body });
    const accepted = await restarted.inject({
      method: 'POST',
      url: '/api/webhooks/revenuecat',
      headers: { authorization: keys.revenuecatWebhookAuth.value },
      payload: body,
    });
    expect([refused.statusCode, accepted.statusCode]).toEqual([401, 200]);
    await restarted.close();

    const configured = await createTestApp(database, {
      env: { REVENUECAT_WEBHOOK_AUTH: 'configured-webhook-secret', APP_API_KEY: 'configured-app-key-0001', ...MINDBODY },
    });
    expect(configured.integrationKeys.revenuecatWebhookAuth).toEqual({
      value: 'configured-webhook-secret',
      source: 'env',
      variable: 'REVENUECAT_WEBHOOK_AUTH',
    });
    expect(configured.integrationKeys.appApiKey.source).toBe('env');
    expect(configured.mindbody.mode).toBe('live');
    expect(configured.mindbody.siteIds).toEqual([-99, 5739]);
    await configured.close();
  });

  it('refuses to start when the entitlement mapping names a level that does not exist', async () => {
    await expect(createTestApp(database, { env: { REVENUECAT_ENTITLEMENT_LEVELS: 'premium:3,diamond:7' } })).rejects.toThrow(
      "Invalid configuration: REVENUECAT_ENTITLEMENT_LEVELS maps 'diamond' to level 7, which does not exist (levels: 1, 2, 3)",
    );
  });
});

describe.each(testDatabases())('the scheduled Mindbody import on $name', ({ open }) => {
  it('runs every MINDBODY_SYNC_INTERVAL_MINUTES, starting one interval after start, and stops when set to 0', async () => {
    const database = await open();
    try {
      const clock = { now: () => new Date('2026-11-22T12:00:00Z') };
      const scheduled = await createTestApp(database, { clock, env: { MINDBODY_SYNC_INTERVAL_MINUTES: '15' } });
      expect(await database.query("SELECT every_ms, next_run_at FROM job_schedules WHERE name = 'mindbody.sync'")).toEqual([
        { every_ms: 15 * 60_000, next_run_at: new Date('2026-11-22T12:15:00Z') },
      ]);
      await scheduled.close();
      const off = await createTestApp(database, { clock });
      expect(await database.query("SELECT name FROM job_schedules WHERE name = 'mindbody.sync'")).toEqual([]);
      await off.close();
    } finally {
      await database.close();
    }
  });
});
