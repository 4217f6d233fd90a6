import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { testDatabases } from '../support/databases';
import { createTestApp } from '../support/server';

const WEBHOOK_SECRET = 'webhook-secret-for-scopes';
const APP_KEY = 'app-key-for-scopes-0001';
const SEARCH_KEY = 'search-key-for-scopes-01';
const SEARCH_APP = 'STUDIO';

/** Each integration key opens its own endpoint and nothing else (docs/security.md). */
describe.each(testDatabases())('integration key scopes on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, {
      env: { REVENUECAT_WEBHOOK_AUTH: WEBHOOK_SECRET, APP_API_KEY: APP_KEY, SEARCH_API_KEY: SEARCH_KEY, SEARCH_APP_ID: SEARCH_APP },
    });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const webhookBody = { api_version: '1.0', event: { id: 'evt-scope', type: 'TEST' } };
  const viewBody = { email: 'kim@studio.test', vimeo_video_id: '1', viewed_at: '2026-11-22T10:00:00Z' };

  it('the app key does not open the RevenueCat webhook', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/webhooks/revenuecat',
      headers: { authorization: APP_KEY, 'x-app-key': APP_KEY },
      payload: webhookBody,
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toEqual(expect.any(String));
  });

  it('the webhook secret does not open the app endpoints', async () => {
    for (const url of ['/api/app/v1/video-views', '/api/app/v1/debug-info', '/api/app/v1/push-opened']) {
      const response = await app.inject({ method: 'POST', url, headers: { authorization: WEBHOOK_SECRET, 'x-app-key': WEBHOOK_SECRET }, payload: viewBody });
      expect(response.statusCode, url).toBe(401);
    }
  });

  it('neither key opens a staff endpoint', async () => {
    for (const headers of [{ authorization: WEBHOOK_SECRET }, { 'x-app-key': APP_KEY }, { authorization: `Bearer ${APP_KEY}` }]) {
      for (const [method, url] of [
        ['GET', '/api/client/v1/videos'],
        ['GET', '/api/admin/v1/audit'],
        ['POST', '/api/client/v1/messaging/update'],
      ] as const) {
        const response = await app.inject({
          method,
          url,
          headers,
          payload: method === 'POST' ? { id: 1, title: 'x', message: 'y', enabled: true } : undefined,
        });
        expect(response.statusCode, `${method} ${url} with ${Object.keys(headers)[0]}`).toBe(401);
      }
    }
  });

  const searchBody = JSON.stringify({ requests: [{ indexName: 'Customers', query: 'kim' }] });
  const searchHeaders = (key: string) => ({ 'x-algolia-application-id': SEARCH_APP, 'x-algolia-api-key': key, 'content-type': 'text/plain' });

  it('the search key opens neither the webhook, nor the app endpoints, nor a staff endpoint', async () => {
    const webhook = await app.inject({ method: 'POST', url: '/api/webhooks/revenuecat', headers: { authorization: SEARCH_KEY }, payload: webhookBody });
    expect(webhook.statusCode).toBe(401);
    const views = await app.inject({ method: 'POST', url: '/api/app/v1/video-views', headers: { 'x-app-key': SEARCH_KEY }, payload: viewBody });
    expect(views.statusCode).toBe(401);
    const staff = await app.inject({ method: 'GET', url: '/api/client/v1/videos', headers: searchHeaders(SEARCH_KEY) });
    expect(staff.statusCode).toBe(401);
  });

  it('without a staff session the search key alone does not open customer search, nor do the other keys', async () => {
    for (const key of [SEARCH_KEY, APP_KEY, WEBHOOK_SECRET]) {
      const response = await app.inject({ method: 'POST', url: '/1/indexes/*/queries', headers: searchHeaders(key), payload: searchBody });
      expect(response.statusCode, key).toBe(401);
    }
  });

  it('each key still opens its own endpoint', async () => {
    const webhook = await app.inject({ method: 'POST', url: '/api/webhooks/revenuecat', headers: { authorization: WEBHOOK_SECRET }, payload: webhookBody });
    expect(webhook.statusCode).toBe(200);
    const views = await app.inject({ method: 'POST', url: '/api/app/v1/video-views', headers: { 'x-app-key': APP_KEY }, payload: viewBody });
    expect(views.statusCode).not.toBe(401);
  });
});
