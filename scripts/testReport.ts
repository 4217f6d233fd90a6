/**
 * What `npm test` (scripts/test.ts) prints again at the end of a failed lane: its failures, and when a
 * Vitest worker died, the files it took with it.
 */
import fs from 'node:fs';

export const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, '');

/** What a failed command said about its failures: Vitest's "Failed Tests" part, or the end of the output. */
export function failures(lines: string[]): string[] {
  const start = lines.findIndex((line) => /⎯+ Failed (Tests|Suites) \d+ ⎯+/.test(plain(line)));
  if (start === -1) return lines.slice(-80);
  const part = lines.slice(start);
  return part.length > 200 ? [...part.slice(0, 180), '…', ...part.slice(-20)] : part;
}

/**
 * The lane's test files that never said how they ended. A worker that dies (its process exits) takes the
 * file it was running with it, and Vitest says only "Worker exited unexpectedly", naming none.
 */
export function unreported(lines: string[], testFiles: string[]): string[] {
  if (!lines.some((line) => /Worker exited unexpectedly|Worker forks emitted error/.test(line))) return [];
  const reported = new Set<string>();
  for (const line of lines.map(plain)) {
    const match = /(tests\/\S+\.test\.tsx?) \(\d+ tests?\b/.exec(line);
    if (match) reported.add(match[1]!);
  }
  const missing = testFiles.filter((file) => !reported.has(file));
  // What a dying process prints on its way out (V8's heap limit, a signal, a native abort), wherever it was.
  const lastWords = lines.filter(
    (line) => !/[✓×]/.test(line) && /FATAL ERROR|out of memory|Segmentation fault|core dumped|Aborted|SIGKILL|SIGSEGV|SIGABRT/i.test(line),
  );
  return [
    '',
    ...(missing.length ? ['A worker exited; these files never said how they ended:', ...missing.map((file) => `  ${file}`)] : []),
    ...(lastWords.length ? ['What the output said of a process that died:', ...lastWords.slice(-20)] : []),
  ];
}

/** The test files under `dir` (`tests/e2e`), as Vitest names them. */
export const testFilesIn = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.test\.tsx?$/.test(file))
    .map((file) => `${dir}/${file}`);
