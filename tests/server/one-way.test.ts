import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/architecture.md ("How a request flows"): one way to reach the data (plain SQL through `rows` and
// `execute`, in an area's data modules), one way to open a transaction (`database.transaction`), one way
// to write an audit entry (`recordAudit`), and route files that hold schemas and calls, not SQL. This
// keeps a second way from coming back.

const ROOT = join(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Code without comments (prose may name what the code must not do); URLs in strings stay. */
const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1');

interface Rule {
  rule: string;
  pattern: RegExp;
  /** Files (relative to the repository) where the one way itself lives. */
  home: string[] | ((file: string) => boolean);
  /** Which files the rule covers. */
  covers: (file: string) => boolean;
}

const server = (file: string) => file.startsWith('server/');
/** An area's data module: `queries.ts`, or `<what>Queries.ts` beside it. */
const dataModule = (file: string) => /^server\/src\/[a-zA-Z]+\/(queries|[a-z][a-zA-Z]*Queries)\.ts$/.test(file);
const databaseLayer = (file: string) => file.startsWith('server/src/db/');
const SQL_TEXT = /\b(SELECT\s[\s\S]{0,200}?\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b/;
const RULES: Rule[] = [
  {
    rule: 'the query builder (drizzle) or app.db (use rows or execute in a data module)',
    pattern: /\bapp\s*\.\s*db\b|\btx\s*\.\s*db\b|\bfrom\s+['"]drizzle-orm/,
    home: [],
    covers: server,
  },
  {
    rule: 'an untyped query (use rows, whose schema checks each row, or execute)',
    pattern: /\.\s*query\s*[<(]/,
    home: databaseLayer,
    covers: (file) => file.startsWith('server/src/'),
  },
  {
    rule: 'SQL outside a data module (move it to server/src/<area>/queries.ts or <what>Queries.ts)',
    pattern: new RegExp(`\\.\\s*(rows|execute|execScript)\\s*[<(]|${SQL_TEXT.source}`),
    home: (file) => dataModule(file) || databaseLayer(file),
    covers: (file) => file.startsWith('server/src/') && !file.startsWith('server/src/routes/'),
  },
  {
    rule: 'a drizzle transaction (use database.transaction)',
    pattern: /\b(db|tx|executor)\s*\.\s*transaction\s*\(/,
    home: [],
    covers: server,
  },
  {
    rule: 'BEGIN by hand (use database.transaction)',
    pattern: /['"`]\s*BEGIN\b/i,
    // The migration runner holds its advisory lock on one connection across every file's own transaction;
    // the PGlite thread's files are where database.transaction itself is made.
    home: [
      'server/src/db/client.ts',
      'server/src/db/migrate.ts',
      'server/src/db/pgliteThread.ts',
      'server/src/db/pgliteWorker.ts',
      'server/src/db/pgliteProtocol.ts',
    ],
    covers: server,
  },
  {
    rule: 'a pooled connection held by hand (use database.transaction)',
    pattern: /\bpool\s*\.\s*connect\s*\(/,
    home: ['server/src/db/client.ts', 'server/src/db/migrate.ts'],
    covers: server,
  },
  {
    rule: 'an audit entry written by hand (use recordAudit)',
    pattern: /insert\s+into\s+audit_log|\.insert\s*\(\s*auditLog\b/i,
    // recordAudit (audit/record.ts) is the one way; its statements are in the area's data module.
    home: ['server/src/audit/queries.ts'],
    covers: server,
  },
  {
    rule: 'SQL in a route (move it to the area: server/src/<area>/queries.ts)',
    pattern: new RegExp(`\\.\\s*(query|rows|execute|execScript)\\s*[<(]|\\bsql\`|${SQL_TEXT.source}`),
    home: [],
    covers: (file) => file.startsWith('server/src/routes/'),
  },
];

function violations(files: { file: string; text: string }[]): string[] {
  return files.flatMap(({ file, text }) =>
    RULES.filter(
      (rule) =>
        rule.covers(file) && !(typeof rule.home === 'function' ? rule.home(file) : rule.home.includes(file)) && rule.pattern.test(withoutComments(text)),
    ).map((rule) => `${file}: ${rule.rule}`),
  );
}

describe('one way to open a transaction and to write an audit entry; thin routes', () => {
  it('recognises each other way, and not the same words in comments', () => {
    const samples = [
      { file: 'server/src/videos/a.ts', text: 'await app.db.transaction(async (tx) => tx.insert(videos));' },
      { file: 'server/src/videos/b.ts', text: "await database.execScript('BEGIN; UPDATE videos SET enabled = true; COMMIT;');" },
      { file: 'server/src/videos/c.ts', text: 'const client = await database.pool.connect();' },
      { file: 'server/src/videos/d.ts', text: "await database.query('INSERT INTO audit_log (action) VALUES ($1)', ['x']);" },
      { file: 'server/src/videos/e.ts', text: 'await db.insert(auditLog).values(entry);' },
      { file: 'server/src/routes/f.ts', text: "const [row] = await app.database.query<{ id: number }>('SELECT id FROM videos WHERE id = $1', [id]);" },
      { file: 'server/src/routes/g.ts', text: 'const rows = await app.db.select().from(videos);' },
      { file: 'server/src/routes/h.ts', text: '// SELECT id FROM videos: see videos/queries.ts\nconst page = request.query.page;' },
      { file: 'server/src/videos/i.ts', text: '/* never app.db.transaction( nor BEGIN */ await database.transaction(async (tx) => recordAudit(tx, entry));' },
      { file: 'server/src/videos/j.ts', text: "const listed = await tx.rows(VideoRow, 'SELECT id FROM videos');" },
      { file: 'server/src/videos/queries.ts', text: "export const videoIds = (tx: Queryable) => tx.rows(VideoRow, 'SELECT id FROM videos');" },
      { file: 'server/src/broadcasts/sendQueries.ts', text: "await tx.execute('UPDATE broadcasts SET status = $1', ['sent']);" },
    ];
    expect(violations(samples)).toEqual([
      'server/src/videos/a.ts: the query builder (drizzle) or app.db (use rows or execute in a data module)',
      'server/src/videos/a.ts: a drizzle transaction (use database.transaction)',
      'server/src/videos/b.ts: SQL outside a data module (move it to server/src/<area>/queries.ts or <what>Queries.ts)',
      'server/src/videos/b.ts: BEGIN by hand (use database.transaction)',
      'server/src/videos/c.ts: a pooled connection held by hand (use database.transaction)',
      'server/src/videos/d.ts: an untyped query (use rows, whose schema checks each row, or execute)',
      'server/src/videos/d.ts: SQL outside a data module (move it to server/src/<area>/queries.ts or <what>Queries.ts)',
      'server/src/videos/d.ts: an audit entry written by hand (use recordAudit)',
      'server/src/videos/e.ts: an audit entry written by hand (use recordAudit)',
      'server/src/routes/f.ts: an untyped query (use rows, whose schema checks each row, or execute)',
      'server/src/routes/f.ts: SQL in a route (move it to the area: server/src/<area>/queries.ts)',
      'server/src/routes/g.ts: the query builder (drizzle) or app.db (use rows or execute in a data module)',
      'server/src/videos/j.ts: SQL outside a data module (move it to server/src/<area>/queries.ts or <what>Queries.ts)',
    ]);
  });

  it('finds none in the server', () => {
    const files = [...sourceFiles(join(ROOT, 'server/src')), ...sourceFiles(join(ROOT, 'server/seed'))].map((path) => ({
      file: relative(ROOT, path),
      text: readFileSync(path, 'utf8'),
    }));
    expect(files.length).toBeGreaterThan(100);
    expect(violations(files)).toEqual([]);
  });
});
