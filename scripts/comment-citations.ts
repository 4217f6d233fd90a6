#!/usr/bin/env node
// Comments say why the code is as it is; an issue number or a spec section only sends the reader
// elsewhere, and goes stale when the issue closes or the spec is renumbered. This finds them, in
// comments only: a '#' in a string (a colour, a URL's fragment) is not a citation.
//
//   node --import tsx scripts/comment-citations.ts      every citation, file:line, and exit 1 if any
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CHECKED_DIRS = ['src', 'server', 'contract', 'tests', 'scripts', 'bench'];
const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;

/**
 * What reads as a citation: `#34`, `issue 12` / `issues 12 and 14` / `issue #12`, `PR 7`, `§7.2`,
 * `spec section 4`. `#1976d2` (a colour) is not: the digits must end the word.
 */
export const CITATION = /(?:^|[^\w&])#\d+\b|\b(?:issues?|PRs?|pull request)\s*#?\d+\b|§|\bspec(?:'s)?\s+sections?\s+\d/i;

/**
 * Text a comment quotes ('Video #12', `#34`) is an example of what is shown or written, not a
 * citation: a quote opens where no letter precedes it, so "the client's" opens none.
 */
const QUOTED = /(?<![\w])'[^'\n]*'|`[^`\n]*`|"[^"\n]*"/g;

function walk(dir: string): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.') || name === 'results' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (SOURCE_FILE.test(name)) out.push(path);
  }
  return out;
}

/** Every comment of a source text, with the line it starts on (1-based). */
export function commentsOf(text: string, fileName = 'file.tsx'): { line: number; text: string }[] {
  const kind = /\.(tsx|jsx)$/.test(fileName) ? ts.ScriptKind.TSX : /\.(js|mjs|cjs)$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Set<number>();
  const out: { line: number; text: string }[] = [];
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      out.push({ line: source.getLineAndCharacterOfPosition(r.pos).line + 1, text: text.slice(r.pos, r.end) });
    }
  };
  // Comments are trivia before (and after) tokens: visiting every token finds each one once. The
  // text of JSX is not trivia ('// x' there is shown on the page), so it is not scanned.
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.JsxText) return;
    if (node.kind === ts.SyntaxKind.JsxElement || node.kind === ts.SyntaxKind.JsxFragment) {
      // Between JSX children a comment can only be written as {/* … */}: the expression's own trivia.
      for (const child of node.getChildren(source)) visit(child);
      return;
    }
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  take(ts.getLeadingCommentRanges(text, 0));
  return out.sort((a, b) => a.line - b.line);
}

export interface Citation {
  file: string;
  line: number;
  text: string;
}

/** The comment lines citing an issue or a spec section in one text. */
export function citationsIn(text: string, file = 'file.ts'): Citation[] {
  const out: Citation[] = [];
  // Most files hold nothing that could be one: they are not parsed.
  if (!CITATION.test(text)) return out;
  for (const comment of commentsOf(text, file)) {
    comment.text.split('\n').forEach((line, i) => {
      if (CITATION.test(line.replace(QUOTED, "''"))) out.push({ file, line: comment.line + i, text: line.trim() });
    });
  }
  return out;
}

export function findCitations(root = ROOT): Citation[] {
  const out: Citation[] = [];
  for (const dir of CHECKED_DIRS) {
    for (const path of walk(join(root, dir))) {
      out.push(...citationsIn(readFileSync(path, 'utf8'), relative(root, path).split(sep).join('/')));
    }
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = findCitations();
  for (const c of found) console.log(`${c.file}:${c.line}: ${c.text}`);
  process.exitCode = found.length ? 1 : 0;
}
