import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The documentation a newcomer reads: the README stays a first read, and every relative link in it
// and in docs/ leads somewhere (a moved or renamed file, or a renamed heading, breaks this test).
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const README_MAX_LINES = 300;

const markdownFiles = () => [
  'README.md',
  'bench/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor for a heading: lower-cased, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(text: string): Set<string> {
  const withoutCode = text.replace(/```[\s\S]*?```/g, '');
  return new Set([...withoutCode.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => headingAnchor(m[1]!)));
}

/** Relative links of a Markdown text, outside code blocks and code spans: [text](target). */
export function relativeLinks(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** Why a link from `file` to `target` is broken, or null when it resolves. */
function brokenLink(file: string, target: string): string | null {
  const [path, anchor] = target.split('#') as [string, string | undefined];
  const resolved = path ? resolve(dirname(join(ROOT, file)), decodeURIComponent(path)) : join(ROOT, file);
  if (!resolved.startsWith(ROOT)) return 'points outside the repository';
  if (!existsSync(resolved)) return `${relative(ROOT, resolved)} does not exist`;
  if (anchor && statSync(resolved).isFile() && resolved.endsWith('.md')) {
    if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) return `${relative(ROOT, resolved)} has no heading #${anchor}`;
  }
  return null;
}

const CODE_DIRS = ['server', 'src', 'contract', 'bench', 'tests', 'scripts'];
const THIS_FILE = fileURLToPath(import.meta.url);

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : codeFiles(path);
    return /\.(ts|tsx|mjs|js|sql)$/.test(entry.name) && path !== THIS_FILE ? [path] : [];
  });
}

// Documents that live outside this repository (the team's shared folder); a comment naming one
// leaves the next engineer with a pointer they cannot follow. (This file is not scanned.)
const OUTSIDE_DOCUMENTS = new RegExp(['external-apis', 'shared/spec', 'shared/reference', 'stack-notes'].map((s) => s.replace('/', '\\/')).join('|'));

describe('documentation', () => {
  it('finds the links of a Markdown text, and only the relative ones outside code', () => {
    const text = [
      'See [ops](docs/operations.md#backup-and-restore) and [Algolia](https://www.algolia.com/doc/).',
      '`[not a link](nowhere.md)`',
      '```',
      '[inside a code block](nowhere.md)',
      '```',
      '[top](#run-it)',
    ].join('\n');
    expect(relativeLinks(text)).toEqual(['docs/operations.md#backup-and-restore', '#run-it']);
    expect(headingAnchor('Client actions: favorites, access-level overrides, pushes, contract sync')).toBe(
      'client-actions-favorites-access-level-overrides-pushes-contract-sync',
    );
  });

  it('tells a broken link from a good one', () => {
    expect(brokenLink('README.md', 'docs/operations.md')).toBeNull();
    expect(brokenLink('README.md', 'docs/no-such-page.md')).toBe('docs/no-such-page.md does not exist');
    expect(brokenLink('README.md', 'docs/operations.md#no-such-heading')).toBe('docs/operations.md has no heading #no-such-heading');
    expect(brokenLink('docs/search.md', '../../elsewhere.md')).toBe('points outside the repository');
  });

  it('has no broken relative link in the README, bench/README.md or docs/', () => {
    const files = markdownFiles();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/architecture.md', 'docs/operations.md']));
    const broken = files.flatMap((file) =>
      relativeLinks(readFileSync(join(ROOT, file), 'utf8')).flatMap((target) => {
        const why = brokenLink(file, target);
        return why ? [`${file}: (${target}) ${why}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it(`keeps the README a first read (at most ${README_MAX_LINES} lines)`, () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('names the documents the README sends a newcomer to', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const linked = new Set(relativeLinks(readme).map((target) => target.split('#')[0]));
    for (const page of [
      'docs/architecture.md',
      'docs/adding-an-area.md',
      'docs/search.md',
      'docs/automation.md',
      'docs/operations.md',
      'docs/security.md',
      'bench/README.md',
    ]) {
      expect(linked, page).toContain(page);
    }
  });

  it('code points to documents that exist in the repository, never to ones outside it', () => {
    const files = CODE_DIRS.flatMap((dir) => codeFiles(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(300);
    const problems = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const name = relative(ROOT, file);
      const outside = OUTSIDE_DOCUMENTS.test(text) ? [`${name}: names a document outside the repository`] : [];
      const missing = [...new Set([...text.matchAll(/\b((?:docs|bench)\/[\w-]+\.md)\b/g)].map((m) => m[1]!))]
        .filter((doc) => !existsSync(join(ROOT, doc)))
        .map((doc) => `${name}: ${doc} does not exist`);
      return [...outside, ...missing];
    });
    expect(problems).toEqual([]);
  });
});
