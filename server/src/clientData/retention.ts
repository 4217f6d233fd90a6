import type { FastifyInstance } from 'fastify';
import { RETENTION_DEFAULT_DAYS, RETENTION_KINDS, type RetentionSettings } from '@contract/clientData';
import type { Database, Queryable } from '../db/client';
import { recordAudit, type Actor } from '../audit/record';
import { deleteOlderBatch, saveSetting, settingValue, type RetentionTarget } from './queries';

const SETTINGS_KEY = 'retention';
const BATCH = 1000;
const DAY_MS = 86_400_000;

/** The stored settings over the defaults; finished jobs default to JOB_RETENTION_DAYS. */
export async function retentionSettings(db: Queryable, jobRetentionDays: number): Promise<RetentionSettings> {
  const value = await settingValue(db, SETTINGS_KEY);
  const stored = value !== undefined ? (JSON.parse(value) as Partial<RetentionSettings>) : {};
  const defaults = { ...RETENTION_DEFAULT_DAYS, finished_jobs: jobRetentionDays };
  return Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, stored[kind] ?? defaults[kind]])) as RetentionSettings;
}

export async function saveRetention(database: Database, settings: RetentionSettings, jobRetentionDays: number, actor: Actor): Promise<RetentionSettings> {
  return database.transaction(async (tx) => {
    const before = await retentionSettings(tx, jobRetentionDays);
    await saveSetting(tx, SETTINGS_KEY, JSON.stringify(settings));
    await recordAudit(tx, { ...actor, action: 'retention.update', target_type: 'retention', before, after: settings });
    return settings;
  });
}

/** What each setting deletes: the oldest rows first, one short transaction per batch. */
const TARGETS: Record<Exclude<keyof RetentionSettings, 'finished_jobs'>, RetentionTarget> = {
  // Reports that hold no device's push slot: what the app sent for debugging.
  debug_reports: { table: 'debug_records', at: 'created_at', where: 'NOT used_for_push' },
  // Reports that hold a push slot: a device not heard from for this long gets no more pushes.
  device_reports: { table: 'debug_records', at: 'created_at', where: 'used_for_push' },
  // The plays per day on the dashboard stay (they count without naming).
  view_detail: { table: 'video_views', at: 'viewed_at', where: 'true', keepCounts: true },
  audit_entries: { table: 'audit_log', at: 'at', where: 'true' },
};

async function deleteOlder(database: Database, target: (typeof TARGETS)[keyof typeof TARGETS], cutoff: Date, between: () => Promise<void>): Promise<number> {
  let removed = 0;
  for (;;) {
    const count = await database.transaction((tx) => deleteOlderBatch(tx, target, cutoff, BATCH));
    removed += count;
    if (count < BATCH) return removed;
    await between();
  }
}

/** One run of the daily retention job: every kind past its setting is deleted, in batches. */
export async function applyRetention(app: FastifyInstance, between: () => Promise<void>): Promise<Record<keyof RetentionSettings, number>> {
  const settings = await retentionSettings(app.database, app.config.JOB_RETENTION_DAYS);
  const now = app.clock.now().getTime();
  const removed = { finished_jobs: await app.jobs.pruneFinished(settings.finished_jobs, { between }) } as Record<keyof RetentionSettings, number>;
  for (const kind of Object.keys(TARGETS) as (keyof typeof TARGETS)[]) {
    removed[kind] = await deleteOlder(app.database, TARGETS[kind], new Date(now - settings[kind] * DAY_MS), between);
  }
  return removed;
}
