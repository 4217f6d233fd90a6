import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/src/db/client';
import { DatabaseStoppedError } from '../../server/src/db/pgliteThread';
import { createTestApp, signIn } from '../support/server';

/** The server's default: PGlite in a worker thread, on a data directory. */
describe('PGlite on a data directory, in its worker thread', () => {
  const dirs: string[] = [];
  const open: Database[] = [];
  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-pgworker-'));
    dirs.push(dir);
    return path.join(dir, 'data');
  };
  const openOn = async (dir: string, onFailure?: (error: DatabaseStoppedError) => void) => {
    const database = await openDatabase({ dataDir: dir, onFailure });
    open.push(database);
    return database;
  };
  afterAll(async () => {
    for (const database of open) await database.close().catch(() => undefined);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("gives PostgreSQL the shared buffers it is told to on a data directory, PGlite's default otherwise", async () => {
    const sized = await openDatabase({ dataDir: dataDir(), pgliteSharedBuffers: '160MB' });
    open.push(sized);
    expect(await sized.query('SHOW shared_buffers')).toEqual([{ shared_buffers: '160MB' }]);
    const plain = await openOn(dataDir());
    expect(await plain.query('SHOW shared_buffers')).toEqual([{ shared_buffers: '128MB' }]);
  });

  it('keeps what was written across a close and a reopen, holding the directory while open', async () => {
    const dir = dataDir();
    const first = await openOn(dir);
    await first.transaction(async (tx) => {
      await tx.query("INSERT INTO app_settings (key, value) VALUES ('worker.kept', 'yes')");
    });
    expect(fs.readFileSync(path.join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid));
    await first.close();
    expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);
    await expect(first.query('SELECT 1')).rejects.toThrow(/closed/);

    const second = await openOn(dir);
    expect(await second.query("SELECT value FROM app_settings WHERE key = 'worker.kept'")).toEqual([{ value: 'yes' }]);
    await second.close();
  });

  it('fails every query clearly (503 to HTTP callers) when the thread dies, tells the server once, and frees the directory', async () => {
    const dir = dataDir();
    const failures: DatabaseStoppedError[] = [];
    const database = await openOn(dir, (error) => failures.push(error));
    const app = await createTestApp(database);
    try {
      const cookie = await signIn(app);
      await database.query("INSERT INTO app_settings (key, value) VALUES ('worker.before-crash', 'stored')");

      const inFlight = database.query('SELECT pg_sleep(5)').catch((error: unknown) => error);
      await database.pgliteWorker!.terminate();
      const error = await inFlight;
      expect(error).toBeInstanceOf(DatabaseStoppedError);
      expect((error as Error).message).toMatch(/embedded database stopped/);
      expect(failures).toHaveLength(1);
      expect(failures[0]).toBe(error);

      await expect(database.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseStoppedError);
      await expect(database.transaction(async (tx) => tx.query('SELECT 1'))).rejects.toBeInstanceOf(DatabaseStoppedError);
      const answer = await app.inject({ method: 'GET', url: '/api/client/v1/videos', headers: { cookie } });
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({ message: 'Service unavailable' });
      expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);
    } finally {
      await app.close();
      await database.close();
    }
    expect(failures).toHaveLength(1);

    // What was committed before the thread died is there for the restarted server.
    const restarted = await openOn(dir);
    expect(await restarted.query("SELECT value FROM app_settings WHERE key = 'worker.before-crash'")).toEqual([{ value: 'stored' }]);
    await restarted.close();
  });
});
