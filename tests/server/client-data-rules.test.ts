import { describe, expect, it } from 'vitest';
import { dueDateOf, hourOf, requestStanding, sameEmail } from '@contract/clientDataRules';
import { redactTokens, scrubValue } from '../../server/src/clientData/scrub';
import { emailId, mindbodyIds, tombstoneHash, usable } from '../../server/src/lib/tombstones';

describe('the rules of a client’s data rights', () => {
  it('is due the same day of the next month, the month’s last day when it has no such day', () => {
    expect(dueDateOf(new Date('2026-11-22T09:30:00Z')).toISOString()).toBe('2026-12-22T09:30:00.000Z');
    expect(dueDateOf(new Date('2027-01-31T10:00:00Z')).toISOString()).toBe('2027-02-28T10:00:00.000Z');
    expect(dueDateOf(new Date('2028-01-31T10:00:00Z')).toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect(dueDateOf(new Date('2026-12-15T00:00:00Z')).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });

  it('says open, due soon (7 days or less), overdue or handled', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(requestStanding({ due_at: '2026-12-01T12:00:00Z', handled_at: null }, now)).toBe('open');
    expect(requestStanding({ due_at: '2026-11-29T12:00:00Z', handled_at: null }, now)).toBe('due_soon');
    expect(requestStanding({ due_at: '2026-11-22T11:59:59Z', handled_at: null }, now)).toBe('overdue');
    expect(requestStanding({ due_at: '2026-11-01T00:00:00Z', handled_at: '2026-11-02T00:00:00Z' }, now)).toBe('handled');
  });

  it('compares the e-mail typed again without case or spaces, and buckets looks by the hour', () => {
    expect(sameEmail('  Kim.Park@Studio.TEST ', 'kim.park@studio.test')).toBe(true);
    expect(sameEmail('kim.park@studio.test', null)).toBe(false);
    expect(sameEmail('kim.park@studio.tes', 'kim.park@studio.test')).toBe(false);
    expect(hourOf(new Date('2026-11-22T12:59:59.999Z')).toISOString()).toBe('2026-11-22T12:00:00.000Z');
  });

  it('replaces the client’s names and e-mail in audit values, and free text whole', () => {
    const scrubbed = scrubValue(
      { name: 'Zelda Quartermaine', email: 'ZELDA.Q@example.test', body: 'Called about her knee', nested: [{ note: 'x' }, 'zelda was here'], level: 3 },
      ['Zelda', 'Quartermaine', 'Zelda Quartermaine', 'zelda.q@example.test'],
      'erased client #7',
    );
    expect(scrubbed).toEqual({
      name: 'erased client #7',
      email: 'erased client #7',
      body: '(erased)',
      nested: [{ note: '(erased)' }, 'erased client #7 was here'],
      level: 3,
    });
    // Regular-expression characters in a name are taken literally.
    expect(scrubValue({ who: 'a+b (c)' }, ['a+b (c)'], 'X')).toEqual({ who: 'X' });
  });

  it('redacts every token to its last 6 characters', () => {
    expect(redactTokens({ firebase_token_new: 'abcdefghij123456', results: [{ token: 'zzzzzz987654', outcome: 'sent' }], other: 'kept' })).toEqual({
      firebase_token_new: '…123456',
      results: [{ token: '…987654', outcome: 'sent' }],
      other: 'kept',
    });
  });

  it('hashes identifiers normalized, per kind, and ignores empty ones', () => {
    expect(tombstoneHash(emailId(' Kim@Studio.test ')!)).toBe(tombstoneHash(emailId('kim@studio.test')!));
    expect(tombstoneHash({ kind: 'revenuecat', value: 'kim@studio.test' })).not.toBe(tombstoneHash(emailId('kim@studio.test')!));
    expect(tombstoneHash(emailId('kim@studio.test')!)).toMatch(/^[0-9a-f]{64}$/);
    expect(usable([emailId(''), emailId('   '), null])).toEqual([]);
    expect(mindbodyIds(-99, '100777', 800001).map((id) => id.value)).toEqual(['-99:100777', '-99:800001']);
    expect(mindbodyIds(null, '100777', 800001)).toEqual([]);
  });
});
