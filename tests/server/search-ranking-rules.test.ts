import { describe, expect, it } from 'vitest';
import {
  EXACT,
  PREFIX,
  TYPO,
  bestPerClient,
  boundKinds,
  compareRanked,
  estimateTotal,
  independentEstimate,
  kindGroups,
  type RankedClient,
} from '../../server/src/search/ranking';

const client = (client_id: number, typos: number, prefixes: number, field = 0, sort_key = 'a b'): RankedClient => ({
  client_id,
  typos,
  prefixes,
  field,
  sort_key,
});

describe('search ranking rules', () => {
  it("orders by typos, then prefix-only words, then field, then name, then id (Algolia's tie-breaking)", () => {
    const rows = [
      client(1, 1, 0),
      client(2, 0, 2),
      client(3, 0, 1, 1, 'a'),
      client(4, 0, 1, 0, 'z'),
      client(5, 0, 0, 1, 'z'),
      client(6, 0, 0, 1, 'z'),
      client(7, 0, 0, 0, 'zz'),
    ];
    expect([...rows].sort(compareRanked).map((row) => row.client_id)).toEqual([7, 5, 6, 4, 3, 2, 1]);
  });

  it('keeps a client once, with its best match', () => {
    expect(bestPerClient([client(1, 1, 0), client(2, 0, 1), client(1, 0, 1, 0, 'b')])).toEqual([client(2, 0, 1), client(1, 0, 1, 0, 'b')]);
  });

  it('groups the ways two words can match in rank order: all exact first, every typo last', () => {
    const groups = kindGroups([
      [EXACT, PREFIX, TYPO],
      [EXACT, PREFIX],
    ]);
    expect(groups).toEqual([
      [[EXACT, EXACT]],
      [
        [EXACT, PREFIX],
        [PREFIX, EXACT],
      ],
      [[PREFIX, PREFIX]],
      [[TYPO, EXACT]],
      [[TYPO, PREFIX]],
    ]);
    // A word only a prefix of known words has no exact group.
    expect(kindGroups([[PREFIX], [EXACT, TYPO]])).toEqual([[[PREFIX, EXACT]], [[PREFIX, TYPO]]]);
    expect(kindGroups([[EXACT], []])).toEqual([]);
  });

  it('tells the kinds of a long query apart only for its first words, so its reads stay few', () => {
    const three = [EXACT, PREFIX, TYPO];
    expect(boundKinds([three, three, three], 27)).toEqual([three, three, three]);
    expect(boundKinds([three, three, three, [PREFIX], three], 27)).toEqual([three, three, three, [PREFIX], [null]]);
    expect(boundKinds(Array(12).fill(three), 27)).toEqual([three, three, three, ...Array(9).fill([null])]);
    // Any kind: neither a typo nor a prefix in the ranking.
    expect(kindGroups([[EXACT, PREFIX], [null]])).toEqual([[[EXACT, null]], [[PREFIX, null]]]);
  });

  it('counts exactly when every candidate was read, and estimates (never below what was found) when not', () => {
    expect(estimateTotal(37, 400, 1000, 5000)).toEqual({ nbHits: 37, exact: true });
    expect(estimateTotal(3, 1000, 1000, 176.4)).toEqual({ nbHits: 176, exact: false });
    // Statistics not gathered yet: no more is claimed than was found.
    expect(estimateTotal(100, 1000, 1000, 0)).toEqual({ nbHits: 100, exact: false });
  });

  it("estimates matches of independent words from each word's share of the clients", () => {
    // 1,000,000 clients, 'jack' (and its forms) on 18,000 of them, 'hill' on 9,800: about 176 both.
    expect(independentEstimate(1_000_000, [18_000, 9_800])).toBe(176);
    expect(independentEstimate(1_000, [5_000, 500])).toBe(500);
    expect(independentEstimate(0, [10, 10])).toBe(0);
  });
});
