import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client';
import { keptSecret } from './secretQueries';

/**
 * Without SESSION_SECRET, one random secret is made on first start and kept in the database,
 * so restarts and every instance on the same database sign cookies alike.
 */
export function cookieSecret(database: Database): Promise<string> {
  return keptSecret(database, 'cookie_secret', randomBytes(32).toString('base64url'));
}
