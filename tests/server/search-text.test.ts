import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { highlight, oneEditVariants, queryWords, withinOneEdit, words } from '../../server/src/search/text';
import { readSearchParams, encodeParams } from '../../server/src/search/params';

describe('search text rules', () => {
  it('makes typo variants of whole characters only: text of emoji and astral letters stays valid Unicode', () => {
    const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }), (word) => {
        for (const variant of oneEditVariants(word, 'ab🔷')) expect(LONE_SURROGATE.test(variant), JSON.stringify(variant)).toBe(false);
      }),
    );
    expect(oneEditVariants('🔷x', 'a')).toEqual(expect.arrayContaining(['x', '🔷', 'x🔷', 'a🔷x']));
    expect(withinOneEdit('a🔷bc', 'a🔶bc')).toBe(true);
    expect(withinOneEdit('a🔷bc', 'abc')).toBe(true);
  });

  it('splits words at white space, punctuation and between letters and digits, lower-cased', () => {
    expect(words("O'Brien-Smith jo.anne42@Gmail.com").map((w) => w.text)).toEqual(['o', 'brien', 'smith', 'jo', 'anne', '42', 'gmail', 'com']);
    expect(queryWords('Smith  smith ZOË')).toEqual(['smith', 'zoe']);
    // PostgreSQL text holds no NUL: it separates query words instead of reaching the database.
    expect(queryWords('jack\u0000hill\u0000')).toEqual(['jack', 'hill']);
  });

  it('folds accents away, as Algolia does, keeping the positions of the text', () => {
    expect(queryWords('Ramón ZOË Øster émile')).toEqual(['ramon', 'zoe', 'oster', 'emile']);
    expect(words('José Müller').map((w) => [w.text, w.start, w.end])).toEqual([
      ['jose', 0, 4],
      ['muller', 5, 11],
    ]);
    // Decomposed input (an accent typed as its own character) folds the same; a lone accent is no word.
    expect(queryWords('Jose\u0301 12\u0301')).toEqual(['jose', '12']);
    expect(highlight('Ramón Rivera', ['ramo'], '[', ']').value).toBe('[Ramó]n Rivera');
  });

  it('knows words one edit apart (delete, insert, replace, transpose), and no further', () => {
    expect(withinOneEdit('smith', 'smyth')).toBe(true);
    expect(withinOneEdit('smith', 'smiht')).toBe(true);
    expect(withinOneEdit('smith', 'smth')).toBe(true);
    expect(withinOneEdit('smith', 'smitth')).toBe(true);
    expect(withinOneEdit('smith', 'smoht')).toBe(false);
    expect(oneEditVariants('ab', 'ab').sort()).toEqual(['a', 'aa', 'aab', 'aba', 'abb', 'b', 'ba', 'bab', 'bb'].sort());
  });

  it('wraps prefix matches (the matched part) and typo matches (the whole word) in the given tags', () => {
    expect(highlight('Olivia Smyth', ['oli', 'smith'], '[', ']')).toEqual({
      value: '[Oli]via [Smyth]',
      matchLevel: 'full',
      matchedWords: ['oli', 'smith'],
      fullyHighlighted: false,
    });
    expect(highlight('Noah', ['zed'], '<em>', '</em>')).toEqual({ value: 'Noah', matchLevel: 'none', matchedWords: [] });
    expect(highlight(null, ['a'], '<em>', '</em>').value).toBe('');
  });

  it('reads v4 parameter strings and v5 objects alike, caps hitsPerPage and the query, ignores unknown parameters', () => {
    const v4 = readSearchParams({ indexName: 'Customers', params: 'query=ab%20c&hitsPerPage=5000&attributesToRetrieve=%5B%22title%22%5D&foo=1' });
    expect(v4).toMatchObject({ query: 'ab c', hitsPerPage: 1000, page: 0, attributesToRetrieve: ['title'] });
    const v5 = readSearchParams({ indexName: 'Customers', query: 'x'.repeat(600), page: 2, highlightPreTag: '<b>' });
    expect(v5).toMatchObject({ page: 2, highlightPreTag: '<b>', highlightPostTag: '</em>', hitsPerPage: 20 });
    expect(v5.query).toHaveLength(512);
    expect(() => readSearchParams({ indexName: 'Customers', hitsPerPage: 'many' })).toThrow('hitsPerPage must be a whole number from 0 to 2147483647');
    expect(encodeParams({ query: 'a b+c', facets: ['x', 'y'] })).toBe('facets=x%2Cy&query=a%20b%2Bc');
  });
});
