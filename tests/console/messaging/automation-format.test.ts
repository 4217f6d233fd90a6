import { describe, expect, it } from 'vitest';
import { changedFields, editableFields, parseMilestones, skippedEntries, skippedTotal } from '../../../src/messaging/automation/automationFormat';

describe('automated sending form rules', () => {
  it('reads milestones as sorted, distinct class numbers, or refuses them', () => {
    expect(parseMilestones('50, 10,100, 10')).toEqual([10, 50, 100]);
    expect(parseMilestones('')).toEqual([]);
    expect(parseMilestones('10, ten')).toBeUndefined();
    expect(parseMilestones('0')).toBeUndefined();
    expect(parseMilestones('-5')).toBeUndefined();
  });

  it('sends only what changed', () => {
    expect(changedFields({ a: 1, b: [1, 2], c: 'x' }, { a: 1, b: [1, 3], c: 'y' })).toEqual({ b: [1, 3], c: 'y' });
    expect(changedFields({ a: 1 }, { a: 1 })).toEqual({});
  });

  it('orders skip reasons by count and adds them up', () => {
    expect(skippedEntries({ no_token: 2, daily_cap: 5, opted_out: 2 })).toEqual([
      ['daily_cap', 5],
      ['no_token', 2],
      ['opted_out', 2],
    ]);
    expect(skippedTotal({ no_token: 2, daily_cap: 5 })).toBe(7);
  });

  it("leaves 'active' to its own switch", () => {
    expect(editableFields(['active', 'delay_minutes', 'milestones'])).toEqual(['delay_minutes', 'milestones']);
  });
});
