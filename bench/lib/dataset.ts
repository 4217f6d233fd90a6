import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export interface DatasetSize {
  clients: number;
  videos: number;
  viewsPerClient: number;
}

export type BenchDb = 'pglite' | 'postgres';

export interface Dataset {
  db: BenchDb;
  /** Environment for the server process: DATA_DIR or DATABASE_URL. */
  env: Record<string, string>;
  built: boolean;
  seedSeconds?: number;
}

const MARKER = 'bench_dataset';
/** Bumped when the generator makes different data (2: class visits), so an older data set is not reused. */
const SEED_FORMAT = 2;
const label = (size: DatasetSize) => `${size.clients}c-${size.videos}v-${size.viewsPerClient}vpc-s${SEED_FORMAT}`;

function seed(env: Record<string, string>, size: DatasetSize) {
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'server/src/cli/seed.ts',
      '--clients',
      String(size.clients),
      '--videos',
      String(size.videos),
      '--views-per-client',
      String(size.viewsPerClient),
    ],
    { env: { ...process.env, ...env, LOG_LEVEL: 'warn' }, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`seeding failed (exit ${result.status})`);
  return (Date.now() - started) / 1000;
}

/** A PGlite data directory per size under bench/.data, built once and reused by later runs. */
export function pgliteDataset(size: DatasetSize, rebuild: boolean): Dataset {
  const dir = path.resolve('bench/.data', `pglite-${label(size)}`);
  const marker = path.join(dir, 'READY');
  if (rebuild) fs.rmSync(dir, { recursive: true, force: true });
  if (fs.existsSync(marker)) return { db: 'pglite', env: { DATA_DIR: dir, DATABASE_URL: '' }, built: false };
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(`Building the PGlite data set (${label(size)}) in ${dir}…`);
  const seedSeconds = seed({ DATA_DIR: dir, DATABASE_URL: '' }, size);
  fs.writeFileSync(marker, new Date().toISOString());
  return { db: 'pglite', env: { DATA_DIR: dir, DATABASE_URL: '' }, built: true, seedSeconds };
}

/** A PostgreSQL database per size (studio_bench_<size>) next to BENCH_DATABASE_URL's, built once. */
export async function postgresDataset(size: DatasetSize, rebuild: boolean): Promise<Dataset> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `studio_bench_${label(size).replace(/-/g, '_')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    if (rebuild) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount! > 0;
    if (exists) {
      const probe = new pg.Client({ connectionString: url.toString() });
      await probe.connect();
      const ready = await probe
        .query(`SELECT value FROM app_settings WHERE key = $1`, [MARKER])
        .then((r) => r.rowCount! > 0)
        .catch(() => false);
      await probe.end();
      if (ready) return { db: 'postgres', env: { DATABASE_URL: url.toString() }, built: false };
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    }
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  console.log(`Building the PostgreSQL data set (${label(size)}) in ${name}…`);
  const seedSeconds = seed({ DATABASE_URL: url.toString() }, size);
  const done = new pg.Client({ connectionString: url.toString() });
  await done.connect();
  await done.query(`INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`, [
    MARKER,
    new Date().toISOString(),
  ]);
  await done.end();
  return { db: 'postgres', env: { DATABASE_URL: url.toString() }, built: true, seedSeconds };
}
