import type { Database, Queryable } from '../db/client';
import { changesOf, payingMonths, type Change } from './changes';
import { buildHistory, readRevenueEvent, type History } from './history';
import {
  deleteChanges,
  deleteClientMonths,
  deletePeriods,
  deleteRevenueClients,
  insertChanges,
  insertClientMonths,
  insertPeriods,
  insertRevenueClients,
  laterTransferTarget,
  lockRevenueClients,
  moveCohortCells,
  moveDays,
  moveEventsTo,
  moveEventTo,
  moveMonths,
  processedEventBodies,
  type Cell,
} from './keepQueries';

/**
 * Brings the kept figures of these clients up to date with their stored events: each client's rows
 * are recomputed from all their events (so order and duplicates of deliveries cannot matter) and
 * the daily totals and cohort cells move by the difference. The client rows are locked, in id
 * order, so two instances refreshing the same client take turns.
 */
export async function refreshRevenue(database: Database, clientIds: readonly number[]): Promise<void> {
  const asked = [...new Set(clientIds)].sort((a, b) => a - b);
  if (asked.length === 0) return;
  await database.transaction(async (tx) => {
    const found = await lockRevenueClients(tx, asked);
    // An erased client's events no longer hold the facts (their bodies are emptied): the figures kept
    // at the erasure stay as they are, so a backfill does not take them out of past months.
    const erased = new Set(found.filter((row) => row.erased).map((row) => Number(row.id)));
    const ids = asked.filter((id) => !erased.has(id));
    if (ids.length === 0) return;
    const present = found.filter((row) => !erased.has(Number(row.id)));
    const rows = await processedEventBodies(tx, ids);
    const byClient = new Map<number, ReturnType<typeof readRevenueEvent>[]>();
    for (const row of rows) {
      const body = (typeof row.body === 'string' ? JSON.parse(row.body) : row.body) as { event?: Record<string, unknown> };
      const list = byClient.get(Number(row.client_id)) ?? [];
      list.push(readRevenueEvent(body.event ?? {}));
      byClient.set(Number(row.client_id), list);
    }
    const histories = new Map<number, History>();
    // A client deleted meanwhile keeps no figures.
    for (const { id } of present) histories.set(Number(id), buildHistory(byClient.get(Number(id)) ?? []));
    await replaceChanges(tx, ids, histories);
    await replacePeriods(tx, ids, histories);
    await replaceCohorts(tx, ids, histories);
  });
}

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);
type DayKey = string;
const key = (day: string, kind: string, reason: string): DayKey => `${day}\u0000${kind}\u0000${reason}`;

async function replaceChanges(tx: Queryable, ids: number[], histories: Map<number, History>) {
  const old = await deleteChanges(tx, ids);
  const totals = new Map<DayKey, { n: number; cents: number }>();
  const add = (day: string, kind: string, reason: string, n: number, amountCents: number) => {
    const k = key(day, kind, reason);
    const t = totals.get(k) ?? { n: 0, cents: 0 };
    t.n += n;
    t.cents += amountCents;
    totals.set(k, t);
  };
  for (const row of old) add(String(row.day), row.kind, row.reason, -Number(row.n), -Math.round(Number(row.amount) * 100));
  const fresh: (Change & { client: number })[] = [];
  for (const [client, history] of histories) for (const change of changesOf(history)) fresh.push({ ...change, client });
  for (const c of fresh) add(dayOf(c.at), c.kind, c.reason, c.n, Math.round(c.amount * 100));
  if (fresh.length > 0) {
    await insertChanges(tx, [
      fresh.map((c) => c.client),
      fresh.map((c) => new Date(c.at).toISOString()),
      fresh.map((c) => c.kind),
      fresh.map((c) => c.reason),
      fresh.map((c) => c.n),
      fresh.map((c) => c.amount.toFixed(2)),
    ]);
  }
  // Rows in key order, so two refreshes touching the same days lock them in the same order.
  const moved = [...totals].filter(([, t]) => t.n !== 0 || t.cents !== 0).sort(([a], [b]) => (a < b ? -1 : 1));
  if (moved.length === 0) return;
  const parts = moved.map(([k]) => k.split('\u0000'));
  await moveDays(tx, {
    keys: [parts.map((p) => p[0]!), parts.map((p) => p[1]!), parts.map((p) => p[2]!)],
    n: moved.map(([, t]) => t.n),
    amounts: moved.map(([, t]) => (t.cents / 100).toFixed(2)),
  });
  // The month rows move by the same differences (after the day rows, in key order: the same lock order everywhere).
  const months = new Map<DayKey, { n: number; cents: number }>();
  for (const [k, t] of moved) {
    const [day, kind, reason] = k.split('\u0000') as [string, string, string];
    const mk = key(`${day.slice(0, 7)}-01`, kind, reason);
    const m = months.get(mk) ?? { n: 0, cents: 0 };
    m.n += t.n;
    m.cents += t.cents;
    months.set(mk, m);
  }
  const monthRows = [...months].filter(([, t]) => t.n !== 0 || t.cents !== 0).sort(([a], [b]) => (a < b ? -1 : 1));
  if (monthRows.length === 0) return;
  const monthParts = monthRows.map(([k]) => k.split('\u0000'));
  await moveMonths(tx, {
    keys: [monthParts.map((p) => p[0]!), monthParts.map((p) => p[1]!), monthParts.map((p) => p[2]!)],
    n: monthRows.map(([, t]) => t.n),
    amounts: monthRows.map(([, t]) => (t.cents / 100).toFixed(2)),
  });
}

async function replacePeriods(tx: Queryable, ids: number[], histories: Map<number, History>) {
  await deletePeriods(tx, ids);
  const rows = [...histories].flatMap(([client, h]) => h.periods.filter((p) => !p.refunded && p.end > p.start).map((p) => ({ client, ...p })));
  if (rows.length === 0) return;
  await insertPeriods(tx, [
    rows.map((r) => r.client),
    rows.map((r) => r.subscription),
    rows.map((r) => r.transaction),
    rows.map((r) => r.kind),
    rows.map((r) => r.product),
    rows.map((r) => new Date(r.start).toISOString()),
    rows.map((r) => (Number.isFinite(r.end) ? new Date(r.end).toISOString() : null)),
    rows.map((r) => r.mrrUsd.toFixed(2)),
  ]);
}

/** Moves cohort cells by the difference between the rows removed and those added. */
async function moveCells(tx: Queryable, removed: Cell[], added: Cell[]) {
  const totals = new Map<string, number>();
  for (const r of removed) totals.set(`${r.kind}|${r.cohort}|${r.month}`, (totals.get(`${r.kind}|${r.cohort}|${r.month}`) ?? 0) - 1);
  for (const r of added) totals.set(`${r.kind}|${r.cohort}|${r.month}`, (totals.get(`${r.kind}|${r.cohort}|${r.month}`) ?? 0) + 1);
  const moved = [...totals].filter(([, n]) => n !== 0).sort(([a], [b]) => (a < b ? -1 : 1));
  if (moved.length === 0) return;
  const parts = moved.map(([k]) => k.split('|'));
  await moveCohortCells(
    tx,
    [parts.map((p) => p[0]!), parts.map((p) => p[1]!), parts.map((p) => p[2]!)],
    moved.map(([, n]) => n),
  );
}

async function replaceCohorts(tx: Queryable, ids: number[], histories: Map<number, History>) {
  const removed = await deleteClientMonths(tx, ids);
  const cohorts = [...histories].map(([client, h]) => ({ client, ...payingMonths(h) }));
  await deleteRevenueClients(tx, ids);
  const paying = cohorts.filter((c) => c.cohort !== null);
  let added: Cell[] = [];
  if (paying.length > 0) {
    await insertRevenueClients(
      tx,
      paying.map((c) => c.client),
      paying.map((c) => c.cohort),
    );
    const rows = paying.flatMap((c) => c.months.map((month) => ({ client: c.client, cohort: c.cohort!, month })));
    added = await insertClientMonths(
      tx,
      [rows.map((r) => r.client), rows.map((r) => r.cohort), rows.map((r) => r.month)],
      paying.map((c) => c.client),
    );
  }
  await moveCells(tx, removed, added);
}

/**
 * After a stored event was applied: a TRANSFER moves the earlier events of the clients it came from
 * to the client it went to (as their purchases moved), and an event of a client a later-dated
 * TRANSFER already moved away from (delivered out of order) follows the same way; then the figures
 * of everyone involved are recomputed.
 */
export async function keepRevenueAfter(database: Database, body: Record<string, unknown>, clientId: number | null): Promise<void> {
  if (clientId === null) return;
  const event = (body.event ?? {}) as Record<string, unknown>;
  const touched = [clientId];
  if (String(event.type ?? '').toUpperCase() === 'TRANSFER') {
    const from = Array.isArray(event.transferred_from) ? event.transferred_from.filter((id): id is string => typeof id === 'string') : [];
    touched.push(...(await moveEventsTo(database, from, clientId)));
  } else if (typeof event.id === 'string') {
    const later = await laterTransferTarget(database, clientId, Number(event.event_timestamp_ms ?? 0));
    if (later !== undefined) {
      await moveEventTo(database, event.id, later);
      touched.push(later);
    }
  }
  await refreshRevenue(database, touched);
}
