import { cliArgs, cliConfig, cliDatabase } from './common';
import { createJobQueue } from '../jobs/queue';
import { createMindbody } from '../integrations/mindbody';
import { defineMindbodySync, startMindbodySync } from '../mindbody/jobs';
import { mindbodySyncStatus } from '../mindbody/status';

const usage = `Usage: npm run sync:mindbody [-- --full]
  Imports the Mindbody clients (and their recent visits) now, as the scheduled job does.
  --full   list every client instead of the changes since the last import`;

const { values } = cliArgs({ options: { full: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } } }, usage);

const config = cliConfig();
const database = await cliDatabase(config, 'While the server runs, start an import from it instead: POST /api/admin/v1/mindbody/sync (staff session).');

const systemClock = { now: () => new Date() };
const mindbody = createMindbody(config, systemClock);
const quiet = { info: () => undefined, warn: (obj: object, msg: string) => console.warn(`  ! ${msg} ${JSON.stringify(obj)}`) };
const jobs = createJobQueue(database, systemClock, { warn: quiet.warn, error: (obj, msg) => console.error(`  ! ${msg}`, obj) });
defineMindbodySync(jobs, {
  database,
  mindbody,
  clock: systemClock,
  visitsDays: config.MINDBODY_VISITS_DAYS,
  callLimit: config.MINDBODY_DAILY_CALL_LIMIT,
  log: quiet,
});

console.log(
  `Mindbody ${mindbody.mode === 'live' ? `API ${config.mindbody!.apiUrl}` : 'sandbox site'}: sites ${mindbody.siteIds.join(', ')}${values.full ? ' (full listing)' : ''}`,
);
try {
  // Through the job queue, so an import the server is running already is waited for, not doubled.
  const { id, created } = await startMindbodySync({ jobs }, { full: values.full });
  if (!created) console.log(`An import is already queued or running (job ${id}); waiting for it.`);
  let shown = '';
  const progress = async () => {
    const status = await mindbodySyncStatus(database, mindbody.mode, mindbody.siteIds, { now: new Date(), dailyCallLimit: config.MINDBODY_DAILY_CALL_LIMIT });
    for (const site of status.sites) {
      const run = site.last_run;
      if (!run) continue;
      const line = `  site ${site.site_id}: ${run.status}, ${run.clients_seen}${run.total_clients === null ? '' : `/${run.total_clients}`} clients (${run.clients_created} new, ${run.clients_updated} changed), ${run.visits_imported} visits, ${run.calls} calls${run.visits_deferred > 0 ? `, visits of ${run.visits_deferred} clients wait for tomorrow's budget` : ''}${run.error ? ` — ${run.error}` : ''}`;
      if (line !== shown) console.log((shown = line));
    }
    return status;
  };
  const ticker = setInterval(() => void progress().catch(() => undefined), 1000);
  for (;;) {
    await jobs.runDue();
    const job = await jobs.get(id);
    if (job?.state === 'done' || job?.state === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  clearInterval(ticker);
  const status = await progress();
  console.log(
    status.last_outcome === 'succeeded' ? `✔ Mindbody synced at ${status.last_synced_at}` : `✖ The import failed: ${status.last_error ?? 'see above'}`,
  );
  process.exitCode = status.last_outcome === 'succeeded' ? 0 : 1;
} finally {
  await jobs.stop();
  await database.close();
}
