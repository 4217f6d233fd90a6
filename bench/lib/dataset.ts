import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
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

/**
 * A short hash of what makes the data: the seed's code, the migrations and the locked packages (PGlite's
 * own data format among them). A data set built by other
 * code is never reused, and one built by the same code is, however many clones and runs ask for it.
 */
function generatorHash(): string {
  const hash = createHash('sha256');
  const files = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((entry) => (entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
      .sort();
  for (const file of [...files('server/seed'), ...files('server/migrations'), 'server/src/cli/seed.ts', 'package-lock.json']) {
    hash.update(file).update(fs.readFileSync(file));
  }
  return hash.digest('hex').slice(0, 10);
}
const label = (size: DatasetSize) => `${size.clients}c-${size.videos}v-${size.viewsPerClient}vpc-${generatorHash()}`;

/**
 * Where PGlite data sets live: BENCH_DATA_DIR (CI points it outside the clone, so the next run on the
 * same machine finds them), else bench/.data.
 */
const dataRoot = () => path.resolve(process.env.BENCH_DATA_DIR || 'bench/.data');

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

/** A PGlite data directory per size and generator, built once and reused by later runs. */
export function pgliteDataset(size: DatasetSize, rebuild: boolean): Dataset {
  const dir = path.join(dataRoot(), `pglite-${label(size)}`);
  const marker = path.join(dir, 'READY');
  if (rebuild) fs.rmSync(dir, { recursive: true, force: true });
  if (fs.existsSync(marker)) return { db: 'pglite', env: { DATA_DIR: dir, DATABASE_URL: '' }, built: false };
  const sizePrefix = path.basename(dir).slice(0, path.basename(dir).lastIndexOf('-') + 1);
  for (const other of fs.existsSync(dataRoot()) ? fs.readdirSync(dataRoot()) : []) {
    if (other.startsWith(sizePrefix)) fs.rmSync(path.join(dataRoot(), other), { recursive: true, force: true });
  }
  console.log(`Building the PGlite data set (${label(size)}) in ${dir}…`);
  const seedSeconds = seed({ DATA_DIR: dir, DATABASE_URL: '' }, size);
  fs.writeFileSync(marker, new Date().toISOString());
  return { db: 'pglite', env: { DATA_DIR: dir, DATABASE_URL: '' }, built: true, seedSeconds };
}

/** A PostgreSQL database per size and generator (studio_bench_<size>_<hash>) next to BENCH_DATABASE_URL's, built once. */
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
    // Data sets of the same size from other code are stale for good: make room.
    const sizePrefix = name.slice(0, name.lastIndexOf('_') + 1);
    const stale = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1) AND datname <> $2', [
      sizePrefix,
      name,
    ]);
    for (const { datname } of stale.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
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
