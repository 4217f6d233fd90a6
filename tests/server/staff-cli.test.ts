import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/src/db/client';
import { verifyPassword } from '../../server/src/staff/password';

// `npm run staff` as an operator runs it: its own process on a PGlite data directory.
const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'studio-staff-cli-')), 'data');

function staff(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/src/cli/staff.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** A Node stack trace's frames ("    at foo (file:1:2)"): an operator should never see one. */
const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

describe('npm run staff', () => {
  afterAll(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

  it('adds accounts with a role, changes a role, lists roles, and keeps the last owner', async () => {
    const desk = staff('add', 'FD@studio.test', '--role', 'front_desk', '--password', 'front-desk-pass');
    expect(desk).toMatchObject({ code: 0, out: 'Created fd@studio.test (front_desk)\n' });
    const content = staff('add', 'content@studio.test', '--role', 'content');
    expect(content.code).toBe(0);
    const generated = /with password: (\S+)/.exec(content.out)?.[1];
    expect(generated).toBeDefined();
    expect(staff('add', 'boss@studio.test', '--role', 'owner', '--password', 'boss-password').code).toBe(0);

    const noRole = staff('add', 'someone@studio.test');
    expect(noRole.code).toBe(1);
    expect(noRole.err).toContain('A new account needs --role (owner, manager, front_desk, content).');
    const badRole = staff('role', 'fd@studio.test', 'admin');
    expect(badRole.code).toBe(2);
    expect(badRole.err).toContain("'admin' is not a role: use one of owner, manager, front_desk, content.");

    expect(staff('role', 'fd@studio.test', 'manager')).toMatchObject({ code: 0, out: 'fd@studio.test: front_desk → manager\n' });
    const lastOwner = staff('role', 'boss@studio.test', 'manager');
    expect(lastOwner.code).toBe(1);
    expect(lastOwner.err).toBe('✖ There must always be at least one active owner: make another account an owner first.\n');
    expect(staff('remove', 'boss@studio.test').code).toBe(1);

    const list = staff('list');
    expect(list.code).toBe(0);
    expect(list.out.split('\n').map((line) => line.split(/\s{2,}/).slice(0, 3))).toEqual([
      ['EMAIL', 'ROLE', 'STATUS'],
      ['boss@studio.test', 'owner', 'active'],
      ['content@studio.test', 'content', 'active'],
      ['fd@studio.test', 'manager', 'active'],
      [''],
    ]);

    const database = await openDatabase({ dataDir });
    try {
      const rows = await database.query<{ email: string; password_hash: string }>('SELECT email, password_hash FROM staff_users');
      const hash = (email: string) => rows.find((row) => row.email === email)!.password_hash;
      expect(await verifyPassword('front-desk-pass', hash('fd@studio.test'))).toBe(true);
      expect(await verifyPassword(generated!, hash('content@studio.test'))).toBe(true);
      const audit = await database.query<{ action: string; staff_email: string | null; after: { via?: string } }>(
        "SELECT action, staff_email, after FROM audit_log WHERE action LIKE 'staff.%' ORDER BY id",
      );
      expect(audit.map((entry) => [entry.action, entry.staff_email, entry.after?.via])).toEqual([
        ['staff.create', null, 'npm run staff'],
        ['staff.create', null, 'npm run staff'],
        ['staff.create', null, 'npm run staff'],
        ['staff.update', null, 'npm run staff'],
      ]);
    } finally {
      await database.close();
    }
    // Each call is a process that opens PGlite: on a shared two-core machine that takes a while.
  }, 300_000);

  it("reset-two-step turns a member's two-step off and ends their sessions, audited; one without it is refused", async () => {
    const database = await openDatabase({ dataDir });
    try {
      const [{ id }] = await database.query<{ id: number }>("UPDATE staff_users SET two_step_at = now() WHERE email = 'fd@studio.test' RETURNING id");
      await database.query("INSERT INTO staff_totp (staff_user_id, secret, confirmed_at) VALUES ($1, 'JBSWY3DPEHPK3PXP', now())", [id]);
      await database.query("INSERT INTO staff_recovery_codes (staff_user_id, code_hash) VALUES ($1, 'h1'), ($1, 'h2')", [id]);
      await database.query("INSERT INTO sessions (id, staff_user_id, expires_at) VALUES ('cli-session', $1, now() + interval '1 hour')", [id]);
    } finally {
      await database.close();
    }
    expect(staff('reset-two-step', 'FD@studio.test')).toMatchObject({ code: 0, out: 'fd@studio.test: two-step sign-in is off (1 session(s) ended)\n' });
    const again = staff('reset-two-step', 'fd@studio.test');
    expect(again.code).toBe(1);
    expect(again.err).toBe('✖ fd@studio.test has no two-step sign-in to reset.\n');
    const after = await openDatabase({ dataDir });
    try {
      expect(await after.query("SELECT 1 FROM staff_users WHERE email = 'fd@studio.test' AND two_step_at IS NOT NULL")).toEqual([]);
      expect(await after.query('SELECT 1 FROM staff_totp')).toEqual([]);
      expect(await after.query('SELECT 1 FROM staff_recovery_codes')).toEqual([]);
      expect(await after.query("SELECT 1 FROM sessions WHERE id = 'cli-session'")).toEqual([]);
      const audit = await after.query<{ after: Record<string, unknown> }>("SELECT after FROM audit_log WHERE action = 'auth.two_step_reset'");
      expect(audit.map((row) => row.after)).toEqual([{ two_step: false, email: 'fd@studio.test', sessions_ended: 1, via: 'npm run staff' }]);
    } finally {
      await after.close();
    }
  });

  it('says plainly to stop the server while it holds the PGlite data, without a stack trace', () => {
    // What a running server leaves in its data directory: its pid, alive (here, this test's own).
    fs.writeFileSync(path.join(dataDir, 'server.lock'), String(process.pid));
    try {
      for (const args of [['list'], ['add', 'late@studio.test', '--role', 'content']]) {
        const result = staff(...args);
        expect(result.code).toBe(1);
        expect(result.err).toContain(`is in use by another server process (pid ${process.pid})`);
        expect(result.err).toContain('Stop the server first, then run this again');
        expect(result.err).not.toMatch(STACK_FRAME);
        expect(result.out).toBe('');
      }
    } finally {
      fs.rmSync(path.join(dataDir, 'server.lock'), { force: true });
    }
  });
});
