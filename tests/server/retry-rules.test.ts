import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every outside-service client retries, times out and backs off through server/src/lib/retry.ts
// (docs/architecture.md, "Adapters"). This keeps a client from growing a loop of its own again.

const ROOT = join(import.meta.dirname, '../..');
const INTEGRATIONS = join(ROOT, 'server/src/integrations');

/** What a retry loop of one's own is made of, and where it belongs instead. */
const OWN_RETRY_LOGIC: { rule: string; pattern: RegExp }[] = [
  { rule: 'reads Retry-After (use the retryAfterMs lib/retry.ts hands to classify)', pattern: /retry-after/i },
  { rule: 'exponential arithmetic (use backoffMs)', pattern: /\b2\s*\*\*|Math\.pow\(\s*2\b|<<\s*\w*attempt/i },
  { rule: 'jitter from Math.random (use the random option)', pattern: /Math\.random\(/ },
  { rule: 'a timeout of its own (RetryPolicy.timeoutMs)', pattern: /AbortSignal\.(timeout|any)\(/ },
  { rule: 'a timer (use sleep from lib/retry.ts)', pattern: /\bsetTimeout\(/ },
  { rule: 'an attempt loop (use retrying)', pattern: /\b(for|while)\s*\([^)]*\b(attempts?|tries|retries)\b/i },
  { rule: 'a breaker permit by hand (pass the breaker to retrying)', pattern: /\.begin\(\)|permit\.(success|failure|release)\(/ },
];

/** Source without comments, so prose that names Retry-After is no violation; URLs in strings stay. */
function code(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1');
}

function ownRetryLogic(source: string): string[] {
  const text = code(source);
  return OWN_RETRY_LOGIC.filter(({ pattern }) => pattern.test(text)).map(({ rule }) => rule);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('retry rules', () => {
  it('recognises each piece of a hand-written retry loop, and not the same words in comments', () => {
    const loop = `
      for (let attempt = 1; attempt <= maxAttempts; attempt++) {
        const signal = AbortSignal.timeout(timeoutMs);
        const permit = breaker.begin();
        const response = await fetch(url, { signal });
        const wait = Number(response.headers.get('Retry-After')) * 1000;
        await new Promise((resolve) => setTimeout(resolve, wait || 500 * 2 ** attempt * (0.8 + Math.random() * 0.4)));
      }`;
    expect(ownRetryLogic(loop)).toEqual(OWN_RETRY_LOGIC.map(({ rule }) => rule));
    expect(ownRetryLogic('while (tries < 3) tries++;')).toEqual(['an attempt loop (use retrying)']);
    expect(ownRetryLogic('const delay = Math.pow(2, n);')).toEqual(['exponential arithmetic (use backoffMs)']);
    const prose = `
      // FCM's Retry-After says how long to wait; we back off 2 ** n with Math.random() jitter.
      /* for (let attempt = 0; attempt < 3; attempt++) setTimeout(...) */
      const url = 'https://fcm.googleapis.com/v1/projects';`;
    expect(ownRetryLogic(prose)).toEqual([]);
  });

  it('finds none in the integration clients: they retry through lib/retry.ts', () => {
    const files = sourceFiles(INTEGRATIONS);
    expect(files.length).toBeGreaterThan(10);
    const found = files.flatMap((file) => ownRetryLogic(readFileSync(file, 'utf8')).map((rule) => `${relative(ROOT, file)}: ${rule}`));
    expect(found).toEqual([]);
  });

  it('the four HTTP clients use the helper', () => {
    for (const service of ['fcm', 'mindbody', 'vimeo', 'algolia']) {
      expect(readFileSync(join(INTEGRATIONS, service, 'client.ts'), 'utf8'), service).toMatch(/from '\.\.\/\.\.\/lib\/retry'/);
    }
  });
});
