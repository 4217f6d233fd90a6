import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';
import { ConfigError } from '../config';
import type { Database } from '../db/client';
import { keptSecret } from '../lib/secretQueries';
import { accessLevelOrders } from './queries';

export interface IntegrationKey {
  value: string;
  /** 'env' when configured; 'generated' when made on first start and kept in app_settings. */
  source: 'env' | 'generated';
  variable: string;
}

export interface IntegrationKeys {
  /** The Authorization header RevenueCat must send to POST /api/webhooks/revenuecat. */
  revenuecatWebhookAuth: IntegrationKey;
  /** The X-App-Key header the mobile app must send to /api/app/v1/*. */
  appApiKey: IntegrationKey;
  /** The search-only key of our Algolia-compatible endpoint (the console gets it with the page). */
  searchApiKey: IntegrationKey;
}

const storedKey = (database: Database, name: string, prefix: string) => keptSecret(database, name, `${prefix}${randomBytes(24).toString('base64url')}`);

/**
 * The keys of the two inbound integrations. Without configuration each is generated once and kept
 * in the database (so every instance and every restart agrees): the endpoints are never open.
 */
export async function resolveIntegrationKeys(database: Database, config: Config): Promise<IntegrationKeys> {
  const key = async (configured: string | undefined, variable: string, setting: string, prefix: string): Promise<IntegrationKey> =>
    configured ? { value: configured, source: 'env', variable } : { value: await storedKey(database, setting, prefix), source: 'generated', variable };
  return {
    revenuecatWebhookAuth: await key(config.REVENUECAT_WEBHOOK_AUTH, 'REVENUECAT_WEBHOOK_AUTH', 'revenuecat_webhook_auth', 'rcwh_'),
    appApiKey: await key(config.APP_API_KEY, 'APP_API_KEY', 'app_api_key', 'app_'),
    searchApiKey: await key(config.SEARCH_API_KEY, 'SEARCH_API_KEY', 'search_api_key', 'srch_'),
  };
}

/** Constant-time comparison: hashing first makes both sides the same length. */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Every level the entitlement mapping names must exist, or purchases would fail later. */
export async function checkEntitlementLevels(database: Database, levels: Readonly<Record<string, number>>) {
  const known = await accessLevelOrders(database);
  const unknown = Object.entries(levels).find(([, level]) => !known.includes(level));
  if (unknown) {
    throw new ConfigError('REVENUECAT_ENTITLEMENT_LEVELS', `maps '${unknown[0]}' to level ${unknown[1]}, which does not exist (levels: ${known.join(', ')})`);
  }
}
