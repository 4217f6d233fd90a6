import { recordAudit } from '../audit/record';
import type { Database } from '../db/client';
import { chooseSurvivor, mergedClientFields } from './identity';
import { deleteClientRow, lockMergeRows, moveClientRows, updateSurvivor } from './mergeQueries';

/** Why rows were found to be one Mindbody client (kept in the audit entry). */
export type MergeReason = 'same_unique_id' | 'same_client_id' | 'same_visit';

export interface MergeIdentity {
  siteId: number;
  mbClientId: string;
  uniqueId: number | null;
}

/**
 * Merges rows that are one Mindbody client into the oldest of them (chooseSurvivor), which then
 * carries the given Mindbody identity. One transaction and one audit entry per merged row.
 * Returns the surviving id.
 */
export async function mergeClients(database: Database, ids: readonly number[], identity: MergeIdentity, reason: MergeReason, at: Date): Promise<number> {
  const unique = [...new Set(ids)];
  const survivorId = chooseSurvivor(unique);
  for (const mergedId of unique.filter((id) => id !== survivorId)) {
    await database.transaction(async (tx) => {
      const rows = await lockMergeRows(tx, survivorId, mergedId);
      const survivor = rows.find((row) => row.id === survivorId);
      const merged = rows.find((row) => row.id === mergedId);
      if (!survivor || !merged) return; // already merged or deleted meanwhile
      const moved = await moveClientRows(tx, survivorId, mergedId);
      const fields = mergedClientFields(survivor, merged);
      // The merged row goes first: the survivor takes over its (site, UniqueId).
      await deleteClientRow(tx, mergedId);
      await updateSurvivor(tx, survivorId, fields, identity, at);
      await recordAudit(tx, {
        staff: null,
        action: 'client.merge',
        target_type: 'client',
        target_id: survivorId,
        client_id: survivorId,
        before: {
          merged_client_id: mergedId,
          mb_client_id: merged.mb_client_id,
          mb_unique_id: merged.mb_unique_id,
          email_address: merged.email_address,
          survivor_mb_client_id: survivor.mb_client_id,
        },
        after: { client_id: survivorId, mb_site_id: identity.siteId, mb_client_id: identity.mbClientId, mb_unique_id: identity.uniqueId, reason, moved },
        at,
      });
    });
  }
  return survivorId;
}
