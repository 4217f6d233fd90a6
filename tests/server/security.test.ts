import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { upsertStaffUser } from '../../server/src/staff/accounts';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, STAFF, testClock } from '../support/server';

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
});

describe.each(testDatabases())('security on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  const clock = testClock();
  const consoleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-'));
  fs.writeFileSync(
    path.join(consoleDir, 'index.html'),
    '<!doctype html><meta property="csp-nonce" nonce="CSP_NONCE_PLACEHOLDER"><script type="module" src="/assets/app.js" nonce="CSP_NONCE_PLACEHOLDER"></script>',
  );

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock, env: { CONSOLE_DIR: consoleDir } });
    await upsertStaffUser(app.database, { ...STAFF, role: 'owner' });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('sends a nonce-based Content-Security-Policy with the login page', async () => {
    const response = await app.inject({ method: 'GET', url: '/login' });
    const csp = String(response.headers['content-security-policy']);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(response.body).toContain(`<style nonce="${nonce}">`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toMatch(/script-src 'self' 'nonce-/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['strict-transport-security']).toBeUndefined();
    const again = await app.inject({ method: 'GET', url: '/login' });
    expect(again.headers['content-security-policy']).not.toBe(csp);
  });

  it('fills a fresh nonce into the console page on every load', async () => {
    const response = await app.inject({ method: 'GET', url: '/clients/all', headers: { accept: 'text/html' } });
    const nonce = /'nonce-([^']+)'/.exec(String(response.headers['content-security-policy']))![1];
    expect(response.body).not.toContain('CSP_NONCE_PLACEHOLDER');
    expect(response.body).toContain(`nonce="${nonce}"></script>`);
    const raw = await app.inject({ method: 'GET', url: '/index.html' });
    expect(raw.body).not.toContain('CSP_NONCE_PLACEHOLDER');
  });

  it('adds HSTS when the console is served over https', async () => {
    const secure = await createTestApp(database, { env: { PUBLIC_URL: 'https://console.studio.test' } });
    const response = await secure.inject({ method: 'GET', url: '/login' });
    expect(response.headers['strict-transport-security']).toContain('max-age=');
    await secure.close();
  });

  it('refuses state-changing calls from another site, signed in or not', async () => {
    const cookie = await signIn(app);
    const foreign = await app.inject({ method: 'POST', url: '/login', ...form(STAFF, { origin: 'https://evil.example' }) });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toMatch(/cross-site/i);
    const fetchMeta = await app.inject({
      method: 'POST',
      url: '/api/client/v1/messaging/add-new',
      headers: { cookie, 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      payload: { title: 't', message: 'm', enabled: true, message_type: 1 },
    });
    expect(fetchMeta.statusCode).toBe(403);
    const sameSite = await app.inject({ method: 'POST', url: '/login', ...form(STAFF, { origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' }) });
    expect(sameSite.statusCode).toBe(303);
  });

  it('locks an account at one address after 10 failed sign-ins in 3 minutes, saying when to try again', async () => {
    clock.set(new Date('2026-11-22T12:00:00Z'));
    const victim = { email: 'locked@studio.test', password: 'the-right-one' };
    await upsertStaffUser(app.database, { ...victim, role: 'owner' });
    // Without TRUST_PROXY a made-up X-Forwarded-For does not make these come from ten addresses.
    for (let i = 0; i < 10; i++) {
      const attempt = await app.inject({
        method: 'POST',
        url: '/login',
        ...form({ email: victim.email, password: `wrong-${i}` }, { 'x-forwarded-for': `10.0.0.${i}` }),
      });
      expect(attempt.statusCode).toBe(401);
    }
    const eleventh = await app.inject({ method: 'POST', url: '/login', ...form({ email: victim.email, password: 'wrong-again' }) });
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.body).toContain('Try again in 3 minutes');
    const rightPassword = await app.inject({ method: 'POST', url: '/login', ...form(victim) });
    expect(rightPassword.statusCode).toBe(429);
    clock.advance(3 * 60_000 + 1000);
    const later = await app.inject({ method: 'POST', url: '/login', ...form(victim) });
    expect(later.statusCode).toBe(303);
  });

  it('limits failed sign-ins per address too, across accounts', async () => {
    clock.set(new Date('2026-11-22T13:00:00Z'));
    const ip = { remoteAddress: '198.51.100.7' };
    for (let i = 0; i < 50; i++) {
      const attempt = await app.inject({ method: 'POST', url: '/login', ...ip, ...form({ email: `guess${i}@studio.test`, password: 'x' }) });
      expect(attempt.statusCode).toBe(401);
    }
    const blocked = await app.inject({ method: 'POST', url: '/login', ...ip, ...form(STAFF) });
    expect(blocked.statusCode).toBe(429);
    const elsewhere = await app.inject({ method: 'POST', url: '/login', remoteAddress: '198.51.100.8', ...form(STAFF) });
    expect(elsewhere.statusCode).toBe(303);
  });
});
