import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { PASSWORD_HASH_COST_DEFAULT } from '../config';

const scrypt = (password: string, salt: Buffer, keyLength: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCallback(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))));

// OWASP's scrypt floor (N=2^17, r=8, p=1) costs ~128 MiB per hash; 2^15 with r=8 keeps sign-in
// under ~100 ms on a 2-core machine while staying well above brute-force-friendly costs.
const PARAMS = { N: 2 ** PASSWORD_HASH_COST_DEFAULT, r: 8, p: 1, keyLength: 32 };
const maxmem = 64 * 1024 * 1024;

const dummyHashFor = (N: number) => `scrypt$${N}$${PARAMS.r}$${PARAMS.p}$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;

/**
 * Spent on unknown e-mails so that a wrong e-mail and a wrong password take equally long: the same
 * N, r and p as a new hash, so it follows setPasswordHashCost.
 */
export let DUMMY_HASH = dummyHashFor(PARAMS.N);

/**
 * The cost of new hashes from here on, N = 2^cost (config.passwordHashCost: 15, lower only under
 * NODE_ENV=test, where thousands of sign-ins would otherwise spend minutes in scrypt). A stored
 * hash carries its own N, so hashes made at another cost still verify. The server, buildApp and the
 * command-line tools call it with their configuration before they hash anything.
 */
export function setPasswordHashCost(cost: number) {
  PARAMS.N = 2 ** cost;
  DUMMY_HASH = dummyHashFor(PARAMS.N);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, PARAMS.keyLength, { N: PARAMS.N, r: PARAMS.r, p: PARAMS.p, maxmem });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, expected] = parts;
  const expectedKey = Buffer.from(expected, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), expectedKey.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem,
  });
  return key.length === expectedKey.length && timingSafeEqual(key, expectedKey);
}

/** A password that the first start prints once. */
export function randomPassword(): string {
  return randomBytes(12).toString('base64url');
}
