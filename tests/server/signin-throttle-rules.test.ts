import { describe, expect, it } from 'vitest';
import { DUMMY_HASH, hashPassword, setPasswordHashCost, verifyPassword } from '../../server/src/staff/password';
import { accountKey, addressKey, throttledMessage, throttleVerdict, retryAfterSeconds, type CountedAttempt } from '../../server/src/auth/throttleRules';

const NOW = new Date('2026-11-22T12:00:00Z');
const secondsAgo = (s: number) => new Date(NOW.getTime() - s * 1000);
const attempts = (count: number, email: string, ageSeconds: (i: number) => number): CountedAttempt[] =>
  Array.from({ length: count }, (_, i) => ({ email, at: secondsAgo(ageSeconds(i)) }));

describe('sign-in throttle verdict', () => {
  it('allows the first 10 attempts per account and address, the 10th marked as the last try', () => {
    expect(throttleVerdict([], 'a@x.test', NOW)).toEqual({ allowed: true, limitReached: null });
    expect(
      throttleVerdict(
        attempts(8, 'a@x.test', () => 10),
        'a@x.test',
        NOW,
      ),
    ).toEqual({ allowed: true, limitReached: null });
    expect(
      throttleVerdict(
        attempts(9, 'a@x.test', () => 10),
        'a@x.test',
        NOW,
      ),
    ).toEqual({ allowed: true, limitReached: 'account and address' });
  });

  it('refuses the 11th until the oldest of the 10 leaves the 3-minute window', () => {
    const ten = attempts(10, 'a@x.test', (i) => 100 - i * 5); // 100 s … 55 s ago
    expect(throttleVerdict(ten, 'a@x.test', NOW)).toEqual({ allowed: false, retryAfterMs: 80_000 });
    expect(throttleVerdict(ten, 'other@x.test', NOW)).toEqual({ allowed: true, limitReached: null });
  });

  it('waits for the attempt that takes the count below the limit, not the oldest, when over it', () => {
    const twelve = attempts(12, 'a@x.test', (i) => 170 - i * 10); // 170 s … 60 s ago
    // Count drops to 9 once the 3 oldest have left: the third is 150 s old, so 30 s.
    expect(throttleVerdict(twelve, 'a@x.test', NOW)).toEqual({ allowed: false, retryAfterMs: 30_000 });
  });

  it('ignores attempts older than the window, to the millisecond', () => {
    const old = attempts(10, 'a@x.test', () => 180);
    expect(throttleVerdict(old, 'a@x.test', NOW).allowed).toBe(true);
    const justInside = attempts(10, 'a@x.test', () => 179.999);
    expect(throttleVerdict(justInside, 'a@x.test', NOW)).toEqual({ allowed: false, retryAfterMs: 1000 });
  });

  it('limits an address to 50 attempts across accounts, whatever account comes next', () => {
    const spray = Array.from({ length: 49 }, (_, i) => ({ email: `guess${i}@x.test`, at: secondsAgo(120) }));
    expect(throttleVerdict(spray, 'new@x.test', NOW)).toEqual({ allowed: true, limitReached: 'address' });
    const full = [...spray, { email: 'guess49@x.test', at: secondsAgo(30) }];
    expect(throttleVerdict(full, 'new@x.test', NOW)).toEqual({ allowed: false, retryAfterMs: 60_000 });
  });

  it('waits for the later of the two limits when both are full', () => {
    const mine = attempts(10, 'a@x.test', () => 30);
    const others = Array.from({ length: 40 }, (_, i) => ({ email: `g${i}@x.test`, at: secondsAgo(170) }));
    expect(throttleVerdict([...others, ...mine], 'a@x.test', NOW)).toEqual({ allowed: false, retryAfterMs: 150_000 });
  });

  it('words the refusal by the wait alone and rounds Retry-After up to whole seconds', () => {
    expect(throttledMessage(180_000)).toBe('Too many failed sign-in attempts. Try again in 3 minutes.');
    expect(throttledMessage(61_000)).toBe('Too many failed sign-in attempts. Try again in 2 minutes.');
    expect(throttledMessage(400)).toBe('Too many failed sign-in attempts. Try again in 1 minute.');
    expect(retryAfterSeconds(80_001)).toBe(81);
    expect(retryAfterSeconds(0)).toBe(1);
  });
});

describe('what sign-in attempts are counted under', () => {
  it('counts the e-mail as findStaffByEmail looks it up: trimmed, lower case', () => {
    expect(accountKey('  Coach@Studio.TEST\t')).toBe('coach@studio.test');
    expect(accountKey('')).toBe('');
  });

  it.each([
    ['198.51.100.7', '198.51.100.7'],
    ['::ffff:198.51.100.7', '198.51.100.7'],
    ['::FFFF:c633:6407', '198.51.100.7'],
    ['2001:db8:7:1::1', '2001:db8:7:1::/64'],
    ['2001:0DB8:0007:0001:ffff:ffff:ffff:ffff', '2001:db8:7:1::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::198.51.100.7', '64:ff9b:0:0::/64'],
    ['not an address', 'not an address'],
  ])('counts %s as %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });
});

describe('the password check for an e-mail that does not exist', () => {
  it('costs the same scrypt as a real hash: same N, r, p, salt and key length, and never matches', async () => {
    const shape = (stored: string) => {
      const [scheme, n, r, p, salt, key] = stored.split('$');
      return { scheme, n, r, p, salt: Buffer.from(salt!, 'base64').length, key: Buffer.from(key!, 'base64').length };
    };
    expect(shape(DUMMY_HASH)).toEqual(shape(await hashPassword('correct horse battery')));
    expect(await verifyPassword('', DUMMY_HASH)).toBe(false);
    expect(await verifyPassword('correct horse battery', DUMMY_HASH)).toBe(false);
  });

  it('follows the configured cost, and a hash made at another cost still verifies', async () => {
    const n = (stored: string) => Number(stored.split('$')[1]);
    try {
      setPasswordHashCost(15);
      const full = await hashPassword('correct horse battery');
      expect([n(full), n(DUMMY_HASH)]).toEqual([2 ** 15, 2 ** 15]);
      setPasswordHashCost(10);
      const cheap = await hashPassword('correct horse battery');
      expect([n(cheap), n(DUMMY_HASH)]).toEqual([2 ** 10, 2 ** 10]);
      expect(await verifyPassword('correct horse battery', full)).toBe(true);
      expect(await verifyPassword('correct horse battery', cheap)).toBe(true);
      expect(await verifyPassword('wrong horse battery', full)).toBe(false);
    } finally {
      // What every test app sets (NODE_ENV=test): the files after this one in the same worker hash at it.
      setPasswordHashCost(10);
    }
  });
});
