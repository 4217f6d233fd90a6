import { describe, expect, it } from 'vitest';
import { liftSentence, percent } from '../../src/common/outcomeWords';

describe('a result in plain words', () => {
  it('says more or fewer clients with the interval the right way round, and nothing certain while it includes zero', () => {
    expect(liftSentence({ clients: 37, low: 25, high: 49, significant: true, method: 'normal' })).toEqual({
      key: 'outcomes.lift.more',
      options: { count: '37', smart_count: 37, low: '25', high: '49' },
    });
    // 12 fewer, between 3 and 20 fewer: the interval -20..-3 read as positive numbers
    expect(liftSentence({ clients: -12, low: -20, high: -3, significant: true, method: 'normal' })).toEqual({
      key: 'outcomes.lift.fewer',
      options: { count: '12', smart_count: 12, low: '3', high: '20' },
    });
    expect(liftSentence({ clients: 4, low: -2, high: 1234, significant: false, method: 'newcombe' })).toEqual({
      key: 'outcomes.lift.not_enough',
      options: { low: '-2', high: '1,234' },
    });
    expect(liftSentence(null).key).toBe('outcomes.lift.no_holdout');
  });

  it('writes rates with one decimal at most', () => {
    expect(percent(80 / 243)).toBe('32.9 %');
    expect(percent(0.25)).toBe('25 %');
    expect(percent(null)).toBe('–');
  });
});
