import { clientLatencyCases, cpuNanoseconds } from '../clients-latency';
import { distribution, timeIt } from '../lib/stats';
import type { Figure } from '../lib/figures';
import type { BenchCase } from './types';

/**
 * The client pages' budget (bench/README.md): a client-list page (first, deep, last, filtered) and a
 * client-details load each answer in at most 50 ms at the 95th percentile at 1,000,000 clients. The
 * sections of the client page are shown without a target. Beside the wall clock, the detail keeps
 * the server process's CPU time per request: on a shared machine the wall clock is mostly waiting
 * for a core (on PostgreSQL the database's own work is in its processes, not in this figure).
 */
export const clientsCase: BenchCase = async ({ client, samples, serverPid }) => {
  const figures: Figure[] = [];
  for (const latency of await clientLatencyCases(client)) {
    const cpu: number[] = [];
    const timing = await timeIt(samples, async () => {
      const before = serverPid ? cpuNanoseconds(serverPid) : 0;
      await latency.run();
      if (serverPid) cpu.push((cpuNanoseconds(serverPid) - before) / 1e6);
    });
    const cpuTiming = cpu.length ? distribution(cpu.slice(-samples)) : undefined;
    figures.push({
      group: 'clients',
      name: `${latency.name} (p95)`,
      unit: 'ms',
      ...(latency.targetP95 ? { target: { kind: 'max' as const, value: latency.targetP95 } } : {}),
      value: timing.p95,
      detail: { ...timing, ...(cpuTiming ? { server_cpu_p50: cpuTiming.p50, server_cpu_p95: cpuTiming.p95 } : {}) },
    });
  }
  return figures;
};
