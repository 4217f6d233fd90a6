import type { AutomationOutcomeWeek, BroadcastOutcome } from '@contract/outcomes';
import type { Queryable } from '../db/client';
import { notFound } from '../lib/errors';
import { automatedGroups, broadcastForOutcome, broadcastGroups, type GroupRow } from './queries';
import { liftOf } from './rules';

const rate = (converted: number, clients: number) => (clients === 0 ? null : converted / clients);

type Figures = Omit<AutomationOutcomeWeek, 'type' | 'week' | 'goal' | 'window_days'>;

/** Figures of the clients meant for a message against those held out of it. */
function figures(treated: GroupRow[], held: GroupRow[]): Figures {
  const sum = (rows: GroupRow[], key: keyof Omit<GroupRow, 'held_out' | 'variant'>) => rows.reduce((total, row) => total + Number(row[key]), 0);
  const clients = sum(treated, 'clients');
  const converted = sum(treated, 'converted');
  const holdout = { clients: sum(held, 'clients'), converted: sum(held, 'converted') };
  return {
    clients,
    sent: sum(treated, 'sent'),
    delivered: sum(treated, 'delivered'),
    opened: sum(treated, 'opened'),
    converted,
    conversion_rate: rate(converted, clients),
    holdout: { ...holdout, conversion_rate: rate(holdout.converted, holdout.clients) },
    lift: holdout.clients === 0 ? null : liftOf({ clients, converted }, holdout),
  };
}

/**
 * A broadcast's results. With versions of its text: each version's figures in the test part (against
 * the same holdout), the winner with the figures it was picked on, and, until it is picked, the
 * rest apart (`waiting`: not in the figures, their window has not started).
 */
export async function broadcastOutcome(db: Queryable, id: number): Promise<BroadcastOutcome> {
  const broadcast = await broadcastForOutcome(db, id);
  if (!broadcast) throw notFound(`No broadcast with id ${id}`);
  const rows = await broadcastGroups(db, id);
  const versions = broadcast.variants;
  const picked = broadcast.winner_variant !== null;
  // Before the pick, the rest (variant null) has not been sent to: apart from the figures.
  const treated = rows.filter((row) => !row.held_out && (!versions || picked || row.variant !== null));
  const held = rows.filter((row) => row.held_out);
  const closes = treated
    .concat(held)
    .map((row) => (row.closes ? new Date(row.closes).getTime() : 0))
    .reduce((a, b) => Math.max(a, b), 0);
  const started = broadcast.started_at ?? broadcast.send_at;
  // The rest, until the pick (their rows have no version); a cancelled broadcast's rest will never be sent.
  const waiting =
    versions && !picked && ['scheduled', 'sending'].includes(broadcast.status)
      ? rows.filter((row) => !row.held_out && row.variant === null).reduce((sum, row) => sum + Number(row.clients), 0)
      : 0;
  return {
    broadcast_id: id,
    goal: broadcast.goal,
    window_days: Number(broadcast.goal_window_days),
    holdout_percent: Number(broadcast.holdout_percent),
    ...figures(treated, held),
    window_closes_at: closes ? new Date(closes).toISOString() : null,
    variants: (versions ?? []).map((version, index) => {
      const mine = treated.filter((row) => row.variant !== null && Number(row.variant) === index);
      const figured = figures(mine, held);
      return {
        index,
        title: version.title,
        body: version.body,
        ...figured,
        open_rate: rate(figured.opened, figured.sent),
        winner: picked && Number(broadcast.winner_variant) === index,
      };
    }),
    winner: picked
      ? {
          index: Number(broadcast.winner_variant),
          reason: broadcast.winner_reason!,
          metric: broadcast.winner_metric ?? 'conversion',
          picked_at: new Date(broadcast.winner_picked_at!).toISOString(),
          versions: (broadcast.winner_figures ?? []).map((f) => ({
            clients: Number(f.clients),
            hits: Number(f.hits),
            rate: rate(Number(f.hits), Number(f.clients)),
          })),
        }
      : null,
    winner_due_at:
      versions && !picked && started && broadcast.pick_winner_after_hours !== null && waiting > 0
        ? new Date(new Date(started).getTime() + Number(broadcast.pick_winner_after_hours) * 3_600_000).toISOString()
        : null,
    waiting,
  };
}

/** Each automated type's results by studio week, newest week first. */
export async function automationOutcomes(db: Queryable, options: { type?: number; from: string; to: string }): Promise<AutomationOutcomeWeek[]> {
  const rows = await automatedGroups(db, options);
  const keys = [...new Set(rows.map((row) => `${row.week}|${Number(row.message_type)}`))];
  return keys.map((key) => {
    const [week, type] = key.split('|') as [string, string];
    const mine = rows.filter((row) => row.week === week && Number(row.message_type) === Number(type));
    const first = mine[0]!;
    return {
      type: Number(type),
      week,
      goal: first.goal,
      window_days: Number(first.window_days),
      ...figures(
        mine.filter((row) => !row.held_out),
        mine.filter((row) => row.held_out),
      ),
    };
  });
}
