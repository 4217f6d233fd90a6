import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { INT4_MAX, Id, Int4Id, wholeNumber } from '@contract/ids';
import { rangeParam } from '@contract/raSimpleRest';
import { findUnsafeText, hasUnsafeText, removeUnsafeCharacters, safeText, UNSAFE_TEXT_MESSAGE } from '@contract/text';
import { scrubText } from '../../server/src/lib/inputText';
import { readSearchParams, SearchParamsError } from '../../server/src/search/params';

describe('text the database can store', () => {
  it('finds U+0000 and surrogates without their partner, and lets pairs (emoji) and other odd characters through', () => {
    for (const text of ['\u0000', 'a\u0000b', '\ud800', 'x\udfff', '\udc00\ud800', 'end\ud83d']) expect(hasUnsafeText(text), JSON.stringify(text)).toBe(true);
    for (const text of ['', 'plain', '😀', '\ud83d\ude00', '\u202eRTL', 'zero\u200bwidth', 'e\u0301', '\uffff', '\\u0000'])
      expect(hasUnsafeText(text), JSON.stringify(text)).toBe(false);
  });

  it('removes exactly those characters', () => {
    expect(removeUnsafeCharacters('a\u0000b\ud800c😀\udc00')).toBe('abc😀');
    expect(removeUnsafeCharacters('\udc00\ud800')).toBe('');
  });

  it('names the first place in a parsed request that holds them, keys included', () => {
    expect(findUnsafeText({ a: 'ok', b: { c: ['fine', 'bad\u0000'] } }, 'body')).toEqual({ path: 'body.b.c.1', message: UNSAFE_TEXT_MESSAGE });
    expect(findUnsafeText({ nested: { 'k\ud800': 1 } }, 'body')).toEqual({ path: 'body.nested', message: `keys ${UNSAFE_TEXT_MESSAGE}` });
    expect(findUnsafeText({ n: 1, t: true, z: null, s: '😀' }, 'body')).toBeUndefined();
    expect(findUnsafeText('\u0000', 'body')).toEqual({ path: 'body', message: UNSAFE_TEXT_MESSAGE });
  });

  it('cleans every string and key of an outside service’s JSON and keeps everything else as it was', () => {
    const event = { id: 'evt\u0000', n: 14.99, ok: false, none: null, list: ['a\ud800', 2], attrs: { 'k\u0000': { value: 'v\udfff' } } };
    expect(scrubText(event)).toEqual({ id: 'evt', n: 14.99, ok: false, none: null, list: ['a', 2], attrs: { k: { value: 'v' } } });
    const at = new Date(0);
    expect(scrubText({ at }).at).toBe(at);
  });

  it('gives schemas a refinement with the same message', () => {
    expect(safeText().safeParse('fine').success).toBe(true);
    expect(safeText().safeParse('x\u0000').error?.issues[0]?.message).toBe(UNSAFE_TEXT_MESSAGE);
  });
});

describe('ids and whole numbers', () => {
  it('take a JSON number or plain digits and nothing Number() would also read', () => {
    expect(Id.parse(7)).toBe(7);
    expect(Id.parse('9')).toBe(9);
    expect(Id.parse('007')).toBe(7);
    for (const value of [
      true,
      false,
      [7],
      '0x9',
      '1e1',
      ' 7',
      '7 ',
      '+7',
      '-7',
      '7.0',
      1.5,
      '',
      null,
      {},
      0,
      -1,
      2 ** 53,
      '99999999999999999999',
      Number.NaN,
      Infinity,
    ]) {
      expect(Id.safeParse(value).success, JSON.stringify(value)).toBe(false);
    }
  });

  it('keep an integer column’s ids within int4', () => {
    expect(Int4Id.parse(INT4_MAX)).toBe(INT4_MAX);
    expect(Int4Id.safeParse(INT4_MAX + 1).success).toBe(false);
    expect(Id.parse(INT4_MAX + 1)).toBe(INT4_MAX + 1);
  });

  it('say what was expected', () => {
    const level = z.object({ level: wholeNumber({ min: 0, max: 3 }) });
    expect(level.safeParse({ level: true }).error?.issues).toEqual([
      expect.objectContaining({ path: ['level'], message: 'must be a whole number from 0 to 3' }),
    ]);
    expect(level.safeParse({ level: 4 }).error?.issues[0]?.message).toBe('must be a whole number from 0 to 3');
  });
});

describe('paging', () => {
  it('refuses a range beyond int4 or that is not whole numbers', () => {
    expect(rangeParam.parse('[0,24]')).toEqual([0, 24]);
    for (const text of ['[2147483648,2147483649]', '[9007199254740993,9007199254740994]', '[0,1e308]', '[true,5]', '[-1,5]', '[0.5,2]', '[5,1]', '[0,500]']) {
      expect(rangeParam.safeParse(text).success, text).toBe(false);
    }
  });

  it('refuses search pages and page sizes that are not whole numbers up to int4', () => {
    expect(readSearchParams({ page: '2', hitsPerPage: 5 })).toMatchObject({ page: 2, hitsPerPage: 5 });
    for (const params of [
      { page: 2 ** 53 + 2 },
      { page: INT4_MAX + 1 },
      { page: true },
      { page: '1e1' },
      { page: '0x1' },
      { hitsPerPage: [5] },
      { page: -1 },
      { params: 'page=1e1' },
    ]) {
      expect(() => readSearchParams(params), JSON.stringify(params)).toThrow(SearchParamsError);
    }
  });

  it('refuses text a v4 params string decodes to NUL', () => {
    expect(() => readSearchParams({ params: 'query=ada%00' })).toThrow('params.query must not contain NUL or unpaired surrogate characters');
  });
});
