import { z } from 'zod';
import { timestamp } from '../db/rows';
import type { Queryable } from '../db/client';
import type { Candidates } from './triggerQueries';

const MarkRow = z.object({ message_type: z.number(), planned_through: timestamp });
const PlannedRow = z.object({ id: z.number(), due_at: timestamp });
const RangeRow = z.object({ low: z.number().nullable(), high: z.number().nullable() });

/** How far each trigger planned from a mark has been planned, by message type (epoch ms). */
export async function planMarks(database: Queryable): Promise<Map<number, number>> {
  const rows = await database.rows(MarkRow, 'SELECT message_type, planned_through FROM automation_plan_marks');
  return new Map(rows.map((row) => [row.message_type, row.planned_through.getTime()]));
}

/** Moves a type's mark on to `through` (never back). */
export async function advancePlanMark(database: Queryable, messageType: number, through: Date): Promise<void> {
  await database.execute(
    `INSERT INTO automation_plan_marks (message_type, planned_through) VALUES ($1, $2)
         ON CONFLICT (message_type) DO UPDATE SET planned_through = GREATEST(automation_plan_marks.planned_through, EXCLUDED.planned_through)`,
    [messageType, through.toISOString()],
  );
}

/**
 * The candidates as automated_pushes (an event planned before is left as it is); answers the pushes
 * just planned. `clientRange`: only clients with low <= id < high.
 */
export async function insertPlannedPushes(tx: Queryable, query: Candidates, messageType: number, now: Date, clientRange?: { low: number; high: number }) {
  const n = query.params.length;
  const clientFilter = clientRange ? `WHERE c.client_id >= $${n + 3} AND c.client_id < $${n + 4}` : '';
  const extra = clientRange ? [clientRange.low, clientRange.high] : [];
  return tx.rows(
    PlannedRow,
    `INSERT INTO automated_pushes (message_type, client_id, event_key, context, planned_for, due_at, created_at)
         SELECT $${n + 1}, c.client_id, c.event_key, c.context, c.planned_for, c.planned_for, $${n + 2} FROM (${query.sql}) c ${clientFilter}
         ON CONFLICT (message_type, client_id, event_key) DO NOTHING RETURNING id, due_at`,
    [...query.params, messageType, now.toISOString(), ...extra],
  );
}

/** The lowest and highest client id (null when there are no clients). */
export async function clientIdRange(database: Queryable) {
  const [range] = await database.rows(RangeRow, 'SELECT min(id) AS low, max(id) AS high FROM clients');
  return range;
}
