import { MindbodyError, type MindbodyApi } from '../integrations/mindbody';
import type { Database } from '../db/client';
import type { Clock } from '../types';
import type { CallBudget } from './callBudget';
import { mergeClients } from './merge';
import { replaceVisits } from './importQueries';
import { scrubText } from '../lib/inputText';
import { clearVisitsDue, countVisitsDue, dueClients, rowsSharingVisits } from './visitQueries';

const DAY = 86_400_000;
const BATCH = 50;
/** How far ahead a client's booked classes are imported (the client page's upcoming classes). */
export const UPCOMING_VISIT_DAYS = 14;

export interface VisitPhaseDeps {
  database: Database;
  mindbody: MindbodyApi;
  clock: Clock;
  visitsDays: number;
  log?: { warn(obj: object, msg: string): void };
}

export interface VisitPhaseResult {
  visits: number;
  errors: number;
  merged: number;
  /** Clients whose visits still wait (the budget ran out). */
  deferred: number;
}

/**
 * Fetches the visits of the site's waiting clients, most recently active first, one call each,
 * until none wait or the day's budget is spent; the rest wait for a later run. `afterClient` runs
 * after each one (the sync records the calls and extends its job lease there).
 */
export async function importDueVisits(
  deps: VisitPhaseDeps,
  siteId: number,
  budget: CallBudget,
  options: { signal?: AbortSignal; afterClient?: () => Promise<void> } = {},
): Promise<VisitPhaseResult> {
  const { database, mindbody, clock } = deps;
  const result = { visits: 0, errors: 0, merged: 0, deferred: 0 };
  for (;;) {
    const batch = await dueClients(database, siteId, BATCH);
    if (batch.length === 0 || budget.remaining() === 0) break;
    for (const client of batch) {
      if (budget.remaining() === 0) break;
      const now = clock.now();
      const from = new Date(now.getTime() - deps.visitsDays * DAY);
      try {
        // Text the database cannot store is cleaned, not refused: a refusal would skip the client's visits for good.
        // Up to UPCOMING_VISIT_DAYS ahead: the same call lists the classes the client booked (the client page's upcoming classes).
        const to = new Date(now.getTime() + UPCOMING_VISIT_DAYS * DAY);
        const found = scrubText(await mindbody.getClientVisits(siteId, client.mb_client_id, { startDate: from, endDate: to }, options.signal, budget));
        let clientId = client.id;
        if (client.mb_unique_id !== null) {
          const earlier = await rowsSharingVisits(
            database,
            siteId,
            clientId,
            found.map((visit) => visit.mb_visit_id),
          );
          if (earlier.length > 0) {
            const identity = { siteId, mbClientId: client.mb_client_id, uniqueId: client.mb_unique_id };
            clientId = await mergeClients(database, [clientId, ...earlier], identity, 'same_visit', now);
            result.merged += earlier.length;
          }
        }
        result.visits += await replaceVisits(database, { siteId, clientId, mbClientId: client.mb_client_id, visits: found, from, to, now });
        await clearVisitsDue(database, clientId);
      } catch (error) {
        if (error instanceof MindbodyError && error.kind === 'budget') break;
        // One client Mindbody will not answer for (unknown, merged) must not stop the import;
        // an unavailable Mindbody (429, 5xx, timeouts after retries) does.
        if (!(error instanceof MindbodyError) || error.kind !== 'request') throw error;
        result.errors++;
        await clearVisitsDue(database, client.id);
        deps.log?.warn({ site: siteId, client: client.mb_client_id, err: error.message }, 'Mindbody visits skipped for one client');
      } finally {
        await options.afterClient?.();
      }
    }
  }
  result.deferred = await countVisitsDue(database, siteId);
  return result;
}
