import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { E2E_STAFF, startServer, type RunningServer } from '../support/e2e';

async function signInCookie(server: RunningServer): Promise<string> {
  const response = await fetch(`${server.url}/login`, {
    method: 'POST',
    body: new URLSearchParams(E2E_STAFF),
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

describe('the server process', () => {
  const started: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(started.map((server) => server.stop()));
  });

  it('signs in, stops cleanly on SIGTERM, and keeps sessions and data across a restart', async () => {
    // An empty data directory, as on a new machine: the demo data is seeded once.
    const first = await startServer({ fresh: true });
    started.push(first);
    expect(first.output()).toContain('seeding demo data');
    expect(first.output()).toContain(`Sign in:  ${first.url}/login`);
    const cookie = await signInCookie(first);
    const me = await (await fetch(`${first.url}/api/isAuthenticated`, { headers: { cookie } })).json();
    expect(me).toMatchObject({ isAuthenticated: true, user: { email: E2E_STAFF.email } });

    const wrong = await fetch(`${first.url}/login`, {
      method: 'POST',
      body: new URLSearchParams({ email: E2E_STAFF.email, password: 'wrong-password' }),
      redirect: 'manual',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();

    const anonymous = await fetch(`${first.url}/api/client/v1/videos`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toContain('application/json');

    // It stops cleanly; how fast is a benchmark figure (npm run bench, group server).
    expect(await first.stop()).toBe(0);

    const second = await startServer({ dataDir: first.dataDir });
    started.push(second);
    // No second seeding: the demo data from the first start is still there.
    expect(second.output()).not.toContain('seeding demo data');
    const again = await (await fetch(`${second.url}/api/isAuthenticated`, { headers: { cookie } })).json();
    expect(again.isAuthenticated).toBe(true);
  });

  it('refuses a second process on the same data directory, naming the problem', async () => {
    const owner = await startServer();
    started.push(owner);
    const second = spawnSync(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
      env: { ...process.env, DATA_DIR: owner.dataDir, PORT: '0', DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain('is in use by another server process');
  });

  it('stops at boot with a message naming a bad variable', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
      env: { ...process.env, PORT: 'eighty', DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration: PORT');
  });
});
