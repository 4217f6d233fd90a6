import type { Database } from '../db/client';

/** Vacuums and analyzes every table: after a restore nothing loaded has been, and the planner knows no figures. */
export async function vacuumAnalyzeAll(database: Database): Promise<void> {
  await database.execScript('VACUUM (ANALYZE);');
}
