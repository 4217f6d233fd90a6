import type { BroadcastCreated } from '@contract/broadcasts';
import type { BroadcastOutcome } from '@contract/outcomes';
import { timeIt } from '../lib/stats';
import type { BenchCase } from './types';

const YEAR_MS = 365 * 86_400_000;

/**
 * Did it work (docs/automation.md#did-it-work-goals-holdouts-and-lift): a broadcast's results read
 * over HTTP, target p95 ≤ 100 ms for a 100,000-recipient broadcast at 1,000,000 clients. The broadcast
 * goes to every new client (~8 % of the data set) with a 10 % holdout, scheduled a year ahead so
 * nothing is pushed: its outcome rows are there, one per client, as after sending; then it is cancelled.
 */
const plainCase: BenchCase = async ({ client, samples }) => {
  const started = performance.now();
  const created = await client.post<BroadcastCreated>('/api/admin/v1/broadcasts', {
    filter: { new: true },
    title: 'Bench',
    body: 'Outcome bench',
    goal: { kind: 'any', window_days: 7 },
    holdout_percent: 10,
    send_at: new Date(Date.now() + YEAR_MS).toISOString(),
  });
  const createMs = performance.now() - started;
  try {
    let last: BroadcastOutcome | undefined;
    const read = await timeIt(samples, async () => {
      last = await client.get<BroadcastOutcome>(`/api/admin/v1/broadcasts/${created.id}/outcome`);
    });
    const clients = (last?.clients ?? 0) + (last?.holdout.clients ?? 0);
    const label = `${clients.toLocaleString('en-US')} clients (10 % held out)`;
    return [
      {
        group: 'outcomes',
        name: `GET /broadcasts/{id}/outcome, ${label} (p95)`,
        unit: 'ms',
        target: { kind: 'max', value: 100 },
        value: read.p95,
        detail: { ...read },
      },
      { group: 'outcomes', name: `POST /broadcasts fixing ${label} with their outcome rows`, unit: 'ms', value: Math.round(createMs) },
    ];
  } finally {
    await client.post(`/api/admin/v1/broadcasts/${created.id}/cancel`, {});
  }
};

/**
 * The same with three versions of the text (docs/automation.md#versions-a-test-then-the-winner):
 * 20 % of the clients sent to test them, the rest waiting; the results add each version's figures.
 */
const versionsCase: BenchCase = async ({ client, samples }) => {
  const started = performance.now();
  const created = await client.post<BroadcastCreated>('/api/admin/v1/broadcasts', {
    filter: { new: true },
    variants: [
      { title: 'Bench A', body: 'Outcome bench A' },
      { title: 'Bench B', body: 'Outcome bench B' },
      { title: 'Bench C', body: 'Outcome bench C' },
    ],
    test_percent: 20,
    pick_winner_after_hours: 4,
    goal: { kind: 'any', window_days: 7 },
    holdout_percent: 10,
    send_at: new Date(Date.now() + YEAR_MS).toISOString(),
  });
  const createMs = performance.now() - started;
  try {
    let last: BroadcastOutcome | undefined;
    const read = await timeIt(samples, async () => {
      last = await client.get<BroadcastOutcome>(`/api/admin/v1/broadcasts/${created.id}/outcome`);
    });
    const tested = last?.variants.reduce((sum, version) => sum + version.clients, 0) ?? 0;
    const label = `3 versions on ${tested.toLocaleString('en-US')} clients, ${(last?.waiting ?? 0).toLocaleString('en-US')} waiting`;
    return [
      {
        group: 'outcomes',
        name: `GET /broadcasts/{id}/outcome, ${label} (p95)`,
        unit: 'ms',
        target: { kind: 'max', value: 100 },
        value: read.p95,
        detail: { ...read },
      },
      { group: 'outcomes', name: `POST /broadcasts with ${label}, dealt with their outcome rows`, unit: 'ms', value: Math.round(createMs) },
    ];
  } finally {
    await client.post(`/api/admin/v1/broadcasts/${created.id}/cancel`, {});
  }
};

export const outcomesCase: BenchCase = async (context) => [...(await plainCase(context)), ...(await versionsCase(context))];
