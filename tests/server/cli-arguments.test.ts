import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Every `npm run` script that runs a command-line tool of server/src/cli, read from package.json, so a
// new tool is covered by itself.
const scripts = Object.entries((JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts).flatMap(
  ([name, command]) => {
    const file = /server\/src\/cli\/\w+\.ts/.exec(command)?.[0];
    return file ? [{ name, file }] : [];
  },
);
const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'studio-cli-args-')), 'data');
/** A Node stack trace's frames ("    at foo (file:1:2)"): an operator should never see one. */
const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

function run(file: string, ...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe('the command-line tools, given what an operator mistypes', () => {
  afterAll(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

  it('are found in package.json', () => {
    expect(scripts.map((script) => script.name)).toEqual(expect.arrayContaining(['seed', 'staff', 'backup', 'restore', 'keys']));
  });

  it.each(scripts)('npm run $name -- --bogus: says what is wrong and how to call it, touches no data', ({ file }) => {
    const result = run(file, '--bogus');
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/--bogus/);
    expect(result.err + result.out).toMatch(/Usage:\s+npm run/);
    expect(result.err).not.toMatch(STACK_FRAME);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it.each(scripts)('npm run $name -- --help: prints its usage', ({ file }) => {
    const result = run(file, '--help');
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toMatch(/^Usage:\s+npm run/);
  });
});
