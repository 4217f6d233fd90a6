import type { Client, Contract } from '@contract/clients';
import type { Database } from '../db/client';
import { notFound } from '../lib/errors';
import { isUsableKey, requireClientId, type ClientKey } from './lookup';
import { clientRowById } from './queries';
import { toClient } from './rows';
import * as sections from './sectionQueries';

/** The sections of the client-details page, each for the client a key names (400/404 by `requireClientId`). */

/** One client by id (`client` holds exactly one entry); 404 when there is none. */
export async function clientById(database: Database, id: number): Promise<{ client: Client[] }> {
  // By primary key: one plan fits every id.
  const row = await clientRowById(database, id, { reusePlan: true });
  if (!row) throw notFound(`No client with id ${id}`);
  return { client: [toClient(row)] };
}

export const recentlyViewed = async (database: Database, key: ClientKey) => ({
  videos: await sections.recentlyViewedVideos(database, await requireClientId(database, key)),
});

export const favorites = async (database: Database, key: ClientKey) => ({
  videos: await sections.favoriteVideos(database, await requireClientId(database, key)),
});

export const purchases = async (database: Database, key: ClientKey) => ({
  errors: [],
  purchases: await sections.purchases(database, await requireClientId(database, key)),
});

export const debugRecords = async (database: Database, key: ClientKey, page: number, limit: number) => ({
  debugInfo: await sections.debugRecords(database, await requireClientId(database, key), page, limit),
});

/** A client without a MindBody id (a placeholder, or 2 characters or fewer) has no contracts: an empty list, not a 400. */
export async function storedContracts(database: Database, key: ClientKey): Promise<{ errors: []; contracts: Contract[] }> {
  if (!isUsableKey(key)) return { errors: [], contracts: [] };
  return { errors: [], contracts: await sections.contracts(database, await requireClientId(database, key)) };
}
