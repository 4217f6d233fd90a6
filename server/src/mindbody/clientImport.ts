import type { Database } from '../db/client';
import type { MindbodyClientRecord } from '../integrations/mindbody';
import { attachReportRows, insertClients, matchIncoming, updateClients } from './importQueries';
import { settleAttachedReports } from '../appReports/retention';
import { mergeClients } from './merge';
import { emailId, erasedHashes, mindbodyIds, tombstoneHash, usable } from '../lib/tombstones';

export interface UpsertResult {
  created: number;
  updated: number;
  /** Rows merged away because they were the same Mindbody client as another. */
  merged: number;
  /** mb_client_id → our client id, for every client of the page. */
  ids: Map<string, number>;
}

/** One Mindbody client per (site, UniqueId); a record without UniqueId is known by its Id. */
const identityKey = (client: MindbodyClientRecord) => (client.unique_id !== null ? `u:${client.unique_id}` : `i:${client.mb_client_id}`);

/** The page without the clients that were erased here: an import must not bring their data back (docs/data-rights.md). */
async function withoutErased(database: Database, siteId: number, page: MindbodyClientRecord[]): Promise<MindbodyClientRecord[]> {
  const hashesOf = (client: MindbodyClientRecord) =>
    usable([emailId(client.email_address), ...mindbodyIds(siteId, client.mb_client_id, client.unique_id)]).map(tombstoneHash);
  const erased = await erasedHashes(database, page.flatMap(hashesOf));
  return erased.size === 0 ? page : page.filter((client) => !hashesOf(client).some((hash) => erased.has(hash)));
}

/**
 * Upserts one page of Mindbody clients. A client is matched by (site, UniqueId), which Mindbody
 * never changes, then by its Id among rows whose UniqueId we do not know yet (rows from before
 * UniqueId was stored learn it here), so a changed Id (UpdateClient NewId) updates the row instead
 * of adding one. When several rows match, they are one person and are merged (merge.ts). Only what
 * Mindbody owns is written (names, e-mail, ids, status); the VOD access levels, overrides,
 * first_login and RevenueCat id are ours and never touched. A client we know only by e-mail (no
 * MindBody id yet) is linked to its Mindbody record instead of duplicated. An empty value from
 * Mindbody does not erase ours.
 */
export async function upsertClients(database: Database, siteId: number, fullPage: MindbodyClientRecord[], now: Date): Promise<UpsertResult> {
  const page = await withoutErased(database, siteId, fullPage);
  // The last record wins when a page repeats a client.
  const incoming = [...new Map(page.map((client) => [identityKey(client), client])).values()];
  const ids = new Map<string, number>();
  if (incoming.length === 0) return { created: 0, updated: 0, merged: 0, ids };

  const matches = await matchIncoming(
    database,
    siteId,
    incoming.map((client) => ({ key: identityKey(client), mb_client_id: client.mb_client_id, unique_id: client.unique_id, email: client.email_address })),
  );
  const claimed = new Set<number>();
  const toUpdate: (MindbodyClientRecord & { id: number })[] = [];
  const toInsert: MindbodyClientRecord[] = [];
  const byKey = new Map(incoming.map((client) => [identityKey(client), client]));
  let merged = 0;
  for (const match of matches) {
    const client = byKey.get(match.key)!;
    const candidates = match.by_mb.filter((id) => !claimed.has(id));
    let id: number | null = null;
    if (candidates.length > 1) {
      const reason = client.unique_id === null || match.same_id ? 'same_client_id' : 'same_unique_id';
      id = await mergeClients(database, candidates, { siteId, mbClientId: client.mb_client_id, uniqueId: client.unique_id }, reason, now);
      merged += candidates.length - 1;
    } else if (candidates.length === 1) {
      id = candidates[0]!;
    } else {
      const byEmail = match.by_email;
      if (byEmail !== null && !claimed.has(byEmail)) id = byEmail;
    }
    if (id === null) {
      toInsert.push(client);
    } else {
      claimed.add(id);
      ids.set(client.mb_client_id, id);
      toUpdate.push({ ...client, id });
    }
  }

  let updated = 0;
  if (toUpdate.length > 0) {
    updated = await updateClients(database, siteId, toUpdate, now);
  }

  if (toInsert.length > 0) {
    // A new client starts on the free level; from then on the level is ours (purchases, overrides).
    const rows = await insertClients(database, siteId, toInsert, now);
    for (const row of rows) ids.set(row.mb_client_id, row.id);
  }
  return { created: toInsert.length, updated, merged, ids };
}

/** Debug reports the app sent before their client existed get attached to it now. */
export async function attachDebugRecords(database: Database, clientIds: number[], now: Date): Promise<number> {
  if (clientIds.length === 0) return 0;
  const rows = await attachReportRows(database, clientIds);
  await settleAttachedReports(database, rows, now);
  return rows.length;
}
