import type { ActionError } from '@contract/clientActions';
import type { Contract } from '@contract/clients';
import type { Database } from '../db/client';
import { MindbodyError, type MindbodyApi, type MindbodyContractRecord } from '../integrations/mindbody';
import { MAX_TIMEOUT_MS } from '../integrations/mindbody/client';
import { addCalls, callDay } from '../mindbody/callBudget';
import { contracts as storedContracts } from './sections';
import { scrubText } from '../lib/inputText';

/** Staff wait for the answer: the whole sync, retries included, gets Mindbody's per-call cap. */
export const CONTRACT_SYNC_DEADLINE_MS = MAX_TIMEOUT_MS;

/**
 * Replaces the client's stored contracts with `records` in one statement (one transaction):
 * contracts Mindbody still lists are updated in place, new ones added, the rest removed.
 */
export async function replaceContracts(database: Database, clientId: number, records: readonly MindbodyContractRecord[], now: Date) {
  await database.query(
    `WITH incoming AS (
       SELECT * FROM jsonb_to_recordset($2::jsonb) AS i(
         id bigint, contract_id bigint, site_id integer, agreement_date timestamptz, autopay_status text, contract_name text,
         start_date timestamptz, end_date timestamptz, termination_date timestamptz, original_location_id integer,
         upcoming_autopay_events jsonb)
     ), upserted AS (
       INSERT INTO contracts (client_id, id, contract_id, site_id, agreement_date, autopay_status, contract_name, start_date,
                              end_date, termination_date, original_location_id, upcoming_autopay_events, synced_at)
       SELECT $1, id, contract_id, site_id, agreement_date, autopay_status, contract_name, start_date, end_date,
              termination_date, original_location_id, coalesce(upcoming_autopay_events, '[]'::jsonb), $3
       FROM incoming
       ON CONFLICT (client_id, id) DO UPDATE SET
         contract_id = EXCLUDED.contract_id, site_id = EXCLUDED.site_id, agreement_date = EXCLUDED.agreement_date,
         autopay_status = EXCLUDED.autopay_status, contract_name = EXCLUDED.contract_name, start_date = EXCLUDED.start_date,
         end_date = EXCLUDED.end_date, termination_date = EXCLUDED.termination_date,
         original_location_id = EXCLUDED.original_location_id, upcoming_autopay_events = EXCLUDED.upcoming_autopay_events,
         synced_at = EXCLUDED.synced_at
       RETURNING id
     )
     DELETE FROM contracts WHERE client_id = $1 AND id NOT IN (SELECT id FROM incoming)`,
    [clientId, JSON.stringify(dedupe(records)), now.toISOString()],
  );
}

// The same sale listed twice (a paging overlap) would make the upsert touch one row twice.
function dedupe(records: readonly MindbodyContractRecord[]) {
  return [...new Map(records.map((record) => [record.id, record])).values()];
}

/** A failed Mindbody call as the console's `errors` entry: what happened, never credentials. */
export function syncError(error: unknown, deadlineMs: number): ActionError {
  if (error instanceof MindbodyError) {
    if (error.kind === 'aborted' && (!error.lastKind || error.lastKind === 'timeout')) {
      return { message: `Mindbody did not answer within ${deadlineMs / 1000} s; the stored contracts are unchanged`, code: 'timeout' };
    }
    return { message: `${error.message}; the stored contracts are unchanged`, code: error.code ?? error.lastKind ?? error.kind };
  }
  return { message: 'The contract sync failed unexpectedly; the stored contracts are unchanged', code: 'internal' };
}

/** GET /client/clientcontracts for the client, stored on success; on failure the stored copy stays as it was. */
export async function syncContracts(
  deps: { database: Database; mindbody: MindbodyApi; now: () => Date },
  client: { id: number; siteId: number; mbClientId: string },
  deadlineMs = CONTRACT_SYNC_DEADLINE_MS,
): Promise<{ errors: ActionError[]; mbContracts: Contract[] }> {
  let records: MindbodyContractRecord[];
  // Counted in the day's Mindbody calls, never refused: staff asked for it, and the import leaves it room.
  let calls = 0;
  const meter = { spend: () => void calls++ };
  try {
    records = scrubText(await deps.mindbody.getClientContracts(client.siteId, client.mbClientId, AbortSignal.timeout(deadlineMs), meter));
  } catch (error) {
    await addCalls(deps.database, callDay(deps.now()), calls);
    return { errors: [syncError(error, deadlineMs)], mbContracts: await storedContracts(deps.database, client.id) };
  }
  await addCalls(deps.database, callDay(deps.now()), calls);
  await replaceContracts(deps.database, client.id, records, deps.now());
  return { errors: [], mbContracts: await storedContracts(deps.database, client.id) };
}
