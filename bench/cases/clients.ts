import { clientLatencyCases } from '../clients-latency';
import { timeIt } from '../lib/stats';
import type { Figure } from '../lib/figures';
import type { BenchCase } from './types';

/**
 * Issue 3's budget: a client-list page (first, deep, sorted) and a client-details load each answer
 * in at most 50 ms at the 95th percentile at 1,000,000 clients. The other figures (offset pages,
 * quick filter, the whole client page) are shown without a target.
 */
export const clientsCase: BenchCase = async ({ client, samples }) => {
  const figures: Figure[] = [];
  for (const latency of await clientLatencyCases(client)) {
    const timing = await timeIt(samples, () => latency.run());
    figures.push({
      group: 'clients',
      name: `${latency.name} (p95)`,
      unit: 'ms',
      ...(latency.targetP95 ? { target: { kind: 'max' as const, value: latency.targetP95 } } : {}),
      value: timing.p95,
      detail: { ...timing },
    });
  }
  return figures;
};
