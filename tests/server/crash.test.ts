import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { E2E_STAFF, scratchPostgres, startServer, type RunningServer } from '../support/serverProcess';

/**
 * Nothing acknowledged is lost: the real server process is killed with SIGKILL at random moments
 * while a second process streams writes at it (message additions and edits, video edits), then
 * restarted on the same data. Every write that was answered 2xx must be there, with its audit entry,
 * and PGlite must open cleanly each time.
 */
// Five random kills per database in every run; CRASH_ROUNDS=100 for a soak before a release.
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 5);

interface Ack {
  round: number;
  kind: 'add' | 'edit' | 'video';
  n: number;
  title: string;
  id?: number;
}

async function signIn(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.url}/login`, { method: 'POST', body: new URLSearchParams(E2E_STAFF), redirect: 'manual' });
  if (response.status !== 303) throw new Error(`sign-in answered ${response.status}`);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

async function getJson<T>(server: RunningServer, cookie: string, path: string): Promise<T> {
  const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Runs the writer process until the server under it dies; resolves with its acknowledged writes. */
function startWriter(server: RunningServer, cookie: string, round: number, config: { messageIds: number[]; videoIds: number[] }) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/crashWriter.ts', server.url, cookie, String(round), JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const acks = () =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Ack);
  const done = new Promise<{ code: number | null; acks: Ack[]; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, acks: acks(), stderr })),
  );
  return { acks, done };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The highest acknowledged sequence per record: what is stored must be that write or a later one. */
function lastAcked(acks: Ack[], kind: 'edit' | 'video') {
  const last = new Map<number, Ack>();
  for (const ack of acks.filter((a) => a.kind === kind)) {
    const previous = last.get(ack.id!);
    if (!previous || previous.round < ack.round || (previous.round === ack.round && previous.n < ack.n)) last.set(ack.id!, ack);
  }
  return last;
}

/** "crash r3 edit 000042" → [3, 42], comparable in write order. */
const order = (title: string) => {
  const match = /crash r(\d+) \w+ (\d+)/.exec(title);
  return match ? Number(match[1]) * 1e7 + Number(match[2]) : -1;
};

async function verify(server: RunningServer, cookie: string, acks: Ack[]) {
  const messages = (await getJson<{ messages: { id: number; title: string }[] }>(server, cookie, '/api/client/v1/messaging/3')).messages;
  const titles = new Set(messages.map((message) => message.title));
  const missingAdds = acks.filter((ack) => ack.kind === 'add' && !titles.has(ack.title)).map((ack) => ack.title);
  expect(missingAdds, 'acknowledged message additions that are gone').toEqual([]);

  const edited = (await getJson<{ messages: { id: number; title: string }[] }>(server, cookie, '/api/client/v1/messaging/1')).messages;
  const byId = new Map(edited.map((message) => [message.id, message.title]));
  for (const [id, ack] of lastAcked(acks, 'edit')) {
    expect(order(byId.get(id) ?? ''), `message ${id} lost the acknowledged edit "${ack.title}"`).toBeGreaterThanOrEqual(order(ack.title));
  }
  for (const [id, ack] of lastAcked(acks, 'video')) {
    const video = await getJson<{ title: string }>(server, cookie, `/api/admin/v1/videos/${id}`);
    expect(order(video.title), `video ${id} lost the acknowledged edit "${ack.title}"`).toBeGreaterThanOrEqual(order(ack.title));
  }
  // Each acknowledged edit was stored together with its audit entry.
  const audited = new Set<string>();
  for (let start = 0; ; start += 500) {
    const page = await getJson<{ action: string; after: { title?: string } | null }[]>(
      server,
      cookie,
      `/api/admin/v1/audit?${new URLSearchParams({ filter: JSON.stringify({ q: '' }), range: JSON.stringify([start, start + 499]), sort: JSON.stringify(['id', 'ASC']) })}`,
    );
    for (const entry of page) if (entry.after?.title) audited.add(entry.after.title);
    if (page.length < 500) break;
  }
  const unaudited = acks.filter((ack) => !audited.has(ack.title)).map((ack) => ack.title);
  expect(unaudited, 'acknowledged writes without their audit entry').toEqual([]);
}

async function crashRounds(env: Record<string, string>, label: string) {
  let server = await startServer({ env });
  const dataDir = server.dataDir;
  const all: Ack[] = [];
  let kills = 0;
  try {
    let cookie = await signIn(server);
    const messageIds = (await getJson<{ messages: { id: number }[] }>(server, cookie, '/api/client/v1/messaging/1')).messages.map((m) => m.id).slice(0, 5);
    const videoIds = (await getJson<{ id: number }[]>(server, cookie, `/api/admin/v1/videos?range=${encodeURIComponent('[0,4]')}`)).map((v) => v.id);
    expect(messageIds.length).toBeGreaterThan(0);
    expect(videoIds.length).toBeGreaterThan(0);

    for (let round = 1; round <= ROUNDS; round++) {
      const writer = startWriter(server, cookie, round, { messageIds, videoIds });
      // Let some writes through, then kill at a random moment: mid-request, mid-commit, between writes.
      const deadline = Date.now() + 60_000;
      while (writer.acks().length < 5 && Date.now() < deadline) await sleep(20);
      await sleep(Math.floor(Math.random() * 700));
      server.process.kill('SIGKILL');
      await server.stop();
      kills++;
      const { code, acks, stderr } = await writer.done;
      expect(stderr, `writer errors in round ${round}`).toBe('');
      expect(code).toBe(0);
      expect(acks.length, `round ${round} acknowledged writes`).toBeGreaterThan(0);
      all.push(...acks);

      // Same data directory (PGlite) or database (PostgreSQL): it must open cleanly and hold every acknowledged write.
      server = await startServer({ dataDir, env });
      expect(server.output()).not.toMatch(/seeding demo data|error|corrupt/i);
      cookie = await signIn(server);
      await verify(server, cookie, all);
    }
  } finally {
    await server.stop();
  }
  expect(kills).toBe(ROUNDS);
  console.log(`${label}: ${kills} SIGKILLs, ${all.length} acknowledged writes, all present after restart`);
}

describe('crash safety: SIGKILL during a stream of writes', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it(`loses no acknowledged write on PGlite (${ROUNDS} kills)`, { timeout: 900_000 }, async () => {
    await crashRounds({ SEED_DEMO: 'true' }, 'PGlite');
  });

  it.runIf(process.env.TEST_DATABASE_URL)(`loses no acknowledged write on PostgreSQL (${ROUNDS} kills)`, { timeout: 900_000 }, async () => {
    const scratch = await scratchPostgres(process.env.TEST_DATABASE_URL!, 'sc_crash');
    cleanups.push(scratch.drop);
    await crashRounds({ DATABASE_URL: scratch.url, SEED_DEMO: 'true' }, 'PostgreSQL');
  });
});
