import { z } from 'zod';
import type { Queryable } from '../db/client';

const SentRow = z.object({ sent: z.number() });

/**
 * The daily cap's slots (docs/automation.md): at most `cap` pushes per client per studio-local day,
 * counted in automated_push_days and taken atomically across workers. Automated messages, broadcasts
 * and bulk pushes take their slot here, so together they never exceed the cap.
 */
export async function takeCapSlot(tx: Queryable, clientId: number, day: string, cap: number): Promise<boolean> {
  const taken = await tx.rows(
    SentRow,
    `INSERT INTO automated_push_days (client_id, local_day, sent) VALUES ($1, $2, 1)
     ON CONFLICT (client_id, local_day) DO UPDATE SET sent = automated_push_days.sent + 1 WHERE automated_push_days.sent < $3
     RETURNING sent`,
    [clientId, day, cap],
  );
  return taken.length > 0;
}

/** Gives a slot of `day` back (the push it was taken for did not go out). */
export async function giveBackCapSlot(tx: Queryable, clientId: number, day: string): Promise<void> {
  await tx.execute('UPDATE automated_push_days SET sent = sent - 1 WHERE client_id = $1 AND local_day = $2 AND sent > 0', [clientId, day]);
}
