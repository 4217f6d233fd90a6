import type { ActionError } from '@contract/clientActions';
import type { Contract } from '@contract/clients';
import type { Database } from '../db/client';
import { MindbodyError, type MindbodyApi, type MindbodyContractRecord } from '../integrations/mindbody';
import { MAX_TIMEOUT_MS } from '../integrations/mindbody/client';
import { callDay } from '../mindbody/callBudget';
import { addCalls } from '../mindbody/syncQueries';
import { replaceContracts } from './queries';
import { contracts as storedContracts } from './sectionQueries';
import { scrubText } from '../lib/inputText';

/** Staff wait for the answer: the whole sync, retries included, gets Mindbody's per-call cap. */
export const CONTRACT_SYNC_DEADLINE_MS = MAX_TIMEOUT_MS;

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
