/**
 * What keeping video_plays_daily current costs, per way of maintaining it:
 *   none       no aggregate (the baseline);
 *   statement  the statement-level trigger with a transition table (what migration 0008 installs);
 *   row        a row-level trigger doing one upsert per view (the alternative);
 *   refill     no trigger while inserting, then one INSERT ... SELECT ... GROUP BY over the new views
 *              (what a seeder filling the table itself would do).
 * For each: one bulk INSERT ... SELECT of --views views shaped like the demo seeder's, and --singles one-row
 * INSERTs like the app's reports. Runs on a throwaway PGlite data directory (or DATABASE_URL's database:
 * it is left with empty video_views and video_plays_daily, so never point it at real data).
 *
 *   node --import tsx bench/plays-aggregate.ts [--views 2000000] [--singles 2000] [--videos 10000] [--modes none,statement,row,refill]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase, type Database } from '../server/src/db/client';

const { values } = parseArgs({
  options: {
    views: { type: 'string', default: '2000000' },
    singles: { type: 'string', default: '2000' },
    clients: { type: 'string', default: '100000' },
    videos: { type: 'string', default: '10000' },
    modes: { type: 'string', default: 'none,statement,row,refill' },
  },
});
const views = Number(values.views);
const singles = Number(values.singles);
const clients = Number(values.clients);
const videos = Number(values.videos);
const modes = values.modes.split(',');

// The row-level alternative keeps the same two tables: one upsert per view into each.
const ROW_TRIGGER = `
CREATE OR REPLACE FUNCTION bench_plays_daily_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  category integer := coalesce((SELECT category_id FROM videos WHERE id = NEW.video_id), 0);
  view_day date := (NEW.viewed_at AT TIME ZONE 'UTC')::date;
BEGIN
  INSERT INTO video_plays_daily AS d (video_id, day, category_id, plays) VALUES (NEW.video_id, view_day, category, 1)
  ON CONFLICT (video_id, day) DO UPDATE SET plays = d.plays + 1;
  INSERT INTO category_plays_daily AS d (day, category_id, plays) VALUES (view_day, category, 1)
  ON CONFLICT (day, category_id) DO UPDATE SET plays = d.plays + 1;
  RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS bench_video_views_row ON video_views;
CREATE TRIGGER bench_video_views_row AFTER INSERT ON video_views FOR EACH ROW EXECUTE FUNCTION bench_plays_daily_row();`;

/** Wall and CPU seconds of `work`. On PGlite the database runs in this process, so CPU covers its work too
 * and stays meaningful on a busy machine; on PostgreSQL only wall time says anything. */
const seconds = async (work: () => Promise<unknown>) => {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  await work();
  const used = process.cpuUsage(cpu);
  return { wall: Number(process.hrtime.bigint() - started) / 1e9, cpu: (used.user + used.system) / 1e6 };
};
const add = (a: { wall: number; cpu: number }, b: { wall: number; cpu: number }) => ({ wall: a.wall + b.wall, cpu: a.cpu + b.cpu });

async function prepare(database: Database) {
  await database.execScript(`
    TRUNCATE video_views, clients, videos, video_categories RESTART IDENTITY CASCADE;
    INSERT INTO video_categories (name) VALUES ('Bench');
    INSERT INTO videos (title, category_id) SELECT 'Video ' || g, 1 FROM generate_series(1, ${videos}) g;
    INSERT INTO clients (first_name) SELECT 'Client ' || g FROM generate_series(1, ${clients}) g;
    ${ROW_TRIGGER}`);
}

async function setMode(database: Database, mode: string) {
  const statement = mode === 'statement' ? 'ENABLE' : 'DISABLE';
  const row = mode === 'row' ? 'ENABLE' : 'DISABLE';
  await database.execScript(`
    TRUNCATE video_views;
    ALTER TABLE video_views ${statement} TRIGGER video_views_plays_insert;
    ALTER TABLE video_views ${row} TRIGGER bench_video_views_row;
    CHECKPOINT;`);
}

// Same shape as server/seed/demo.ts's views: pseudo-random client, video and moment within 60 days, sorted by time.
const bulkInsert = (count: number) => `
  INSERT INTO video_views (client_id, video_id, viewed_at)
  SELECT 1 + abs(hashint8(g::bigint * 7919 + 1)) % ${clients}, 1 + abs(hashint8(g::bigint * 7919 + 2)) % ${videos},
         now() - make_interval(secs => abs(hashint8(g::bigint * 7919 + 3)) % (60 * 86400))
  FROM generate_series(1, ${count}) g ORDER BY 3
  ON CONFLICT DO NOTHING`;

const refill = `
  CREATE TEMP TABLE plays_delta (video_id integer, day date, plays integer) ON COMMIT DROP;
  INSERT INTO plays_delta SELECT video_id, (viewed_at AT TIME ZONE 'UTC')::date, count(*) FROM video_views GROUP BY 1, 2;
  SELECT plays_daily_apply(1);`;

async function main() {
  const dir = process.env.DATABASE_URL ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'plays-aggregate-'));
  const database = await openDatabase({ url: process.env.DATABASE_URL, dataDir: dir ? path.join(dir, 'data') : 'unused' });
  try {
    await prepare(database);
    console.log(`${database.kind}: ${views.toLocaleString('en-US')} views in one INSERT ... SELECT, then ${singles} one-row INSERTs`);
    for (const mode of modes) {
      await setMode(database, mode);
      let bulk = await seconds(() => database.execScript(bulkInsert(views)));
      if (mode === 'refill') bulk = add(bulk, await seconds(() => database.execScript(refill)));
      const single = await seconds(async () => {
        for (let i = 0; i < singles; i++) {
          await database.query('INSERT INTO video_views (client_id, video_id) VALUES ($1, $2)', [1 + (i % clients), 1 + (i % videos)]);
        }
      });
      const [check] = await database.query<{ plays: number; views: number }>(
        'SELECT (SELECT coalesce(sum(plays), 0)::bigint FROM category_plays_daily) AS plays, (SELECT count(*)::bigint FROM video_views) AS views',
      );
      console.log(
        `${mode.padEnd(9)} bulk ${bulk.wall.toFixed(1).padStart(6)} s wall, ${bulk.cpu.toFixed(1).padStart(6)} s CPU` +
          ` | one-row inserts ${((single.wall / singles) * 1000).toFixed(3)} ms wall, ${((single.cpu / singles) * 1000).toFixed(3)} ms CPU each` +
          ` | aggregate holds ${Number(check!.plays).toLocaleString('en-US')} of ${Number(check!.views).toLocaleString('en-US')} views`,
      );
    }
    await database.execScript(`
      TRUNCATE video_views;
      ALTER TABLE video_views ENABLE TRIGGER video_views_plays_insert;
      DROP TRIGGER bench_video_views_row ON video_views; DROP FUNCTION bench_plays_daily_row();`);
  } finally {
    await database.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
