import { createHash } from 'node:crypto';
import type { Queryable } from '../db/client';
import { insertTombstones, storedTombstoneHashes } from './tombstoneQueries';

/**
 * What identified an erased client, kept only as SHA-256 of the normalized identifier with a fixed
 * prefix per kind (docs/data-rights.md says why not an HMAC): an import or a RevenueCat event for
 * the same person is recognized without the identifier being stored.
 */
export type TombstoneKind = 'email' | 'mindbody_unique_id' | 'mindbody_id' | 'revenuecat';

export interface Identifier {
  kind: TombstoneKind;
  value: string;
}

const normalize = ({ kind, value }: Identifier) => (kind === 'email' ? value.trim().toLowerCase() : value.trim());

export const tombstoneHash = (identifier: Identifier) =>
  createHash('sha256')
    .update(`studio-console:erased:v1:${identifier.kind}:${normalize(identifier)}`)
    .digest('hex');

/** Identifiers with nothing in them are no identifiers (and would match every other empty one). */
export const usable = (identifiers: (Identifier | null)[]): Identifier[] =>
  identifiers.filter((identifier): identifier is Identifier => identifier !== null && normalize(identifier).length > 0);

export const emailId = (value: string | null | undefined): Identifier | null => (value ? { kind: 'email', value } : null);
export const revenuecatId = (value: string | null | undefined): Identifier | null => (value ? { kind: 'revenuecat', value } : null);
export const mindbodyIds = (siteId: number | null, mbClientId: string | null, uniqueId: number | string | null): Identifier[] =>
  siteId === null
    ? []
    : usable([
        mbClientId ? { kind: 'mindbody_id', value: `${siteId}:${mbClientId}` } : null,
        uniqueId !== null && uniqueId !== undefined ? { kind: 'mindbody_unique_id', value: `${siteId}:${uniqueId}` } : null,
      ]);

export async function storeTombstones(tx: Queryable, clientId: number, identifiers: Identifier[], now: Date) {
  const list = usable(identifiers);
  if (list.length === 0) return;
  await insertTombstones(
    tx,
    clientId,
    list.map(tombstoneHash),
    list.map((identifier) => identifier.kind),
    now,
  );
}

/** The hashes among `hashes` that belong to an erased client. */
export async function erasedHashes(db: Queryable, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  return new Set(await storedTombstoneHashes(db, [...new Set(hashes)]));
}

/** Whether any of these identifiers belongs to an erased client. */
export async function isErased(db: Queryable, identifiers: (Identifier | null)[]): Promise<boolean> {
  return (await erasedHashes(db, usable(identifiers).map(tombstoneHash))).size > 0;
}
