import { z } from 'zod';

/** Largest value of a PostgreSQL integer (int4) column; bigint ids stop at JavaScript's safe integers. */
export const INT4_MAX = 2_147_483_647;

const DIGITS = /^[0-9]{1,16}$/;

/**
 * A whole number given as a JSON number or as plain digits (path and query values are always text).
 * Nothing else: no booleans, arrays, hex, exponents, signs, spaces or fractions, which Number()
 * would quietly turn into some other record's id.
 */
export function wholeNumber(options: { min: number; max: number; message?: string }) {
  const { min, max } = options;
  const message = options.message ?? `must be a whole number from ${min} to ${max}`;
  return z.union([z.number(), z.string()], { message }).transform((value, ctx) => {
    const number = typeof value === 'number' ? value : DIGITS.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(number) || number < min || number > max) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return number;
  });
}

/** The id of a row in a bigint (bigserial) column: clients, audit entries, syncs, pushes. */
export const Id = wholeNumber({ min: 1, max: Number.MAX_SAFE_INTEGER, message: 'must be a positive whole number (an id)' });
/** The id of a row in an integer (serial) column: videos, categories, push messages. */
export const Int4Id = wholeNumber({ min: 1, max: INT4_MAX, message: `must be a positive whole number up to ${INT4_MAX} (an id)` });
