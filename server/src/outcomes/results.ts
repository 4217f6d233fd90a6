import type { AutomationOutcomeWeek, BroadcastOutcome } from '@contract/outcomes';
import type { GoalKind, WinnerMetric, WinnerReason } from '@contract/outcomeRules';
import type { Queryable } from '../db/client';
import { notFound } from '../lib/errors';
import { liftOf } from './rules';

interface GroupRow {
  held_out: boolean;
  variant: number | null;
  clients: number;
  sent: number;
  delivered: number;
  opened: number;
  converted: number;
}

/** The aggregate every result is made of: one pass over the message's outcome rows. */
const AGGREGATE = `count(*)::int AS clients,
  count(*) FILTER (WHERE push_status IN ('sent', 'queued'))::int AS sent,
  count(*) FILTER (WHERE push_status = 'sent')::int AS delivered,
  count(opened_at)::int AS opened,
  count(converted_at)::int AS converted`;

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

interface BroadcastVersionsRow {
  variants: { title: string; body: string }[] | null;
  winner_metric: WinnerMetric | null;
  winner_variant: number | null;
  winner_reason: WinnerReason | null;
  winner_figures: { clients: number; hits: number }[] | null;
  winner_picked_at: Date | string | null;
  started_at: Date | string | null;
  send_at: Date | string | null;
  pick_winner_after_hours: number | null;
  status: string;
}

/**
 * A broadcast's results. With versions of its text: each version's figures in the test part (against
 * the same holdout), the winner with the figures it was picked on, and, until it is picked, the
 * rest apart (`waiting`: not in the figures, their window has not started).
 */
export async function broadcastOutcome(db: Queryable, id: number): Promise<BroadcastOutcome> {
  const [broadcast] = await db.query<{ goal: GoalKind; goal_window_days: number; holdout_percent: number; title: string; body: string } & BroadcastVersionsRow>(
    `SELECT goal, goal_window_days, holdout_percent, title, body, variants, winner_metric, winner_variant, winner_reason, winner_figures, winner_picked_at,
            started_at, send_at, pick_winner_after_hours, status
     FROM broadcasts WHERE id = $1`,
    [id],
  );
  if (!broadcast) throw notFound(`No broadcast with id ${id}`);
  const rows = await db.query<GroupRow & { closes: Date | string | null }>(
    `SELECT held_out, variant, ${AGGREGATE}, max(sent_at) + max(window_days) * interval '1 day' AS closes
     FROM message_outcomes WHERE broadcast_id = $1 GROUP BY held_out, variant`,
    [id],
  );
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
  const rows = await db.query<GroupRow & { message_type: number; week: string; goal: GoalKind; window_days: number }>(
    // A goal changed mid-week: the week shows the goal most of its pushes had.
    `SELECT message_type, week::text AS week, held_out, NULL::int AS variant, ${AGGREGATE}, mode() WITHIN GROUP (ORDER BY goal) AS goal,
       mode() WITHIN GROUP (ORDER BY window_days) AS window_days
     FROM message_outcomes
     WHERE message_type IS NOT NULL AND ($1::int IS NULL OR message_type = $1) AND week >= $2::date AND week <= $3::date
     GROUP BY message_type, week, held_out ORDER BY week DESC, message_type`,
    [options.type ?? null, options.from, options.to],
  );
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
