import { describe, expect, it } from 'vitest';
import { citationsIn, commentsOf, findCitations } from '../../scripts/comment-citations';

// Comments say why; an issue number or a spec section sends the reader elsewhere and goes stale
// (docs/architecture.md). This keeps them out of every comment of the code, the tests and the tools.

describe('comments cite no issue or spec section', () => {
  it('finds the comments of a file, and only them', () => {
    const text = [
      '// one',
      "const url = 'https://example.com/a#12'; // two",
      '/* three */ const colour = "#123456";',
      '/**',
      ' * four',
      ' */',
      'const t = `// not a comment ${1} /* nor this */`;',
      'const r = /\\/\\/ not one either/;',
    ].join('\n');
    expect(commentsOf(text, 'a.ts').map((c) => [c.line, c.text])).toEqual([
      [1, '// one'],
      [2, '// two'],
      [3, '/* three */'],
      [4, '/**\n * four\n */'],
    ]);
  });

  it('reads comments in JSX, but not JSX text', () => {
    const text = ['export const A = () => (', '  <div>', '    {/* Issue 24: a comment */}', '    // Issue 12 shown on the page', '  </div>', ');'].join('\n');
    expect(citationsIn(text, 'A.tsx').map((c) => c.line)).toEqual([3]);
  });

  it.each([
    ['// Issue 24: the overrides', true],
    ['// issues 23 and 24', true],
    ['/** Spec §2: the summary box. */', true],
    ["// the spec's section 7 calls", true],
    ['// spec section 4.2', true],
    ['// fixed in #34', true],
    ['// (see PR 12)', true],
    ['// a colour: #1976d2', false],
    ["// the target's label ('Video #12')", false],
    ['// `#34` is what a citation looks like', false],
    ["// the spec's sections, in order", false],
    ['// RFC 9110: Retry-After', false],
  ])('%s → %s', (comment, cites) => {
    expect(citationsIn(`${comment}\nexport const x = 1;\n`, 'a.ts').length > 0).toBe(cites);
  });

  it('strings are not comments: a # or § in a string is not a citation', () => {
    const text = 'const a = \'#34 §2 issue 12\';\nconst b = `see issue 12 ${a}`;\nconst c = "§4";\n';
    expect(citationsIn(text, 'a.ts')).toEqual([]);
  });

  it('no comment in src/, server/, contract/, tests/, scripts/ or bench/ cites an issue or a spec section', () => {
    expect(findCitations().map((c) => `${c.file}:${c.line}: ${c.text}`)).toEqual([]);
  });
});
