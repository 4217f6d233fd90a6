import { createHmac } from 'node:crypto';

/** RFC 6238 codes computed here with node:crypto, independently of the server's library. */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The 6-digit code of `secret` (base32) for the 30-second step holding `at`, `offset` steps away. */
export function totpCode(secret: string, at: Date, offset = 0): string {
  const step = Math.floor(at.getTime() / 1000 / 30) + offset;
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const start = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(start) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}
