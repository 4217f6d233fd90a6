import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import type { Database } from '../../server/src/db/client';
import { upsertStaffUser } from '../../server/src/staff/accounts';
import type { Clock } from '../../server/src/types';
import type { Role } from '@contract/permissions';
import type { MindbodyApi } from '../../server/src/integrations/mindbody';
import type { SearchIndexer } from '../../server/src/integrations/algolia';
import type { RevenueCatRest } from '../../server/src/integrations/revenuecat/rest';

export const STAFF = { email: 'coach@studio.test', password: 'correct horse battery' };

/** A clock tests can move. */
export function testClock(start = new Date('2026-11-22T12:00:00Z')) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set: (date: Date) => {
      current = date.getTime();
    },
    advance: (ms: number) => {
      current += ms;
    },
  } satisfies Clock & Record<string, unknown>;
}

export async function createTestApp(
  database: Database,
  options: { env?: Record<string, string>; clock?: Clock; mindbody?: MindbodyApi; searchIndexer?: SearchIndexer; revenuecat?: RevenueCatRest } & Pick<
    AppOptions,
    'automatedSender' | 'fcm' | 'firebaseIdTokenKeys'
  > = {},
): Promise<FastifyInstance> {
  // No scheduled Mindbody import in tests unless one asks: a test moving the clock by hours would
  // otherwise import the sandbox site into its database.
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', CONSOLE_DIR: '/nonexistent', MINDBODY_SYNC_INTERVAL_MINUTES: '0', ...options.env });
  const app = await buildApp({
    config,
    database,
    clock: options.clock,
    logger: false,
    mindbody: options.mindbody,
    automatedSender: options.automatedSender,
    fcm: options.fcm,
    searchIndexer: options.searchIndexer,
    revenuecat: options.revenuecat,
    firebaseIdTokenKeys: options.firebaseIdTokenKeys,
  });
  await app.ready();
  return app;
}

/**
 * Signs a staff member in through POST /login and returns the Cookie header to send. A new account
 * gets `who.role` (an owner by default: tests of one feature act as someone allowed to use it).
 */
export async function signIn(app: FastifyInstance, who: { email: string; password: string; role?: Role } = STAFF): Promise<string> {
  await upsertStaffUser(app.database, { email: who.email, password: who.password, role: who.role ?? 'owner' });
  const response = await app.inject({
    method: 'POST',
    url: `${app.pathPrefix}/login`,
    payload: new URLSearchParams({ email: who.email, password: who.password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (response.statusCode !== 303) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const cookie = response.cookies.find((c) => c.name === 'studio_session');
  return `studio_session=${cookie!.value}`;
}
