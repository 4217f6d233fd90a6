import { z } from 'zod';
import type { Queryable } from '../db/client';

const HashRow = z.object({ hash: z.string() });

/** Stores each hash with its kind (the same index in `kinds`); a hash already stored stays as it is. */
export async function insertTombstones(tx: Queryable, clientId: number, hashes: string[], kinds: string[], now: Date): Promise<void> {
  await tx.execute(
    `INSERT INTO erasure_tombstones (hash, kind, erased_client_id, created_at)
     SELECT hash, kind, $2, $3 FROM unnest($1::text[], $4::text[]) AS t (hash, kind)
     ON CONFLICT (hash) DO NOTHING`,
    [hashes, clientId, now.toISOString(), kinds],
  );
}

/** The stored hashes among `hashes`. */
export async function storedTombstoneHashes(database: Queryable, hashes: string[]): Promise<string[]> {
  const rows = await database.rows(HashRow, 'SELECT hash FROM erasure_tombstones WHERE hash = ANY($1::text[])', [hashes]);
  return rows.map((row) => row.hash);
}
