import { z } from 'zod';
import { INT4_MAX, Id, Int4Id } from './ids';
import { findUnsafeText } from './text';

// ra-data-simple-rest's query dialect for our /api/admin/v1 extensions:
// ?sort=["title","ASC"]&range=[0,24]&filter={"q":"yoga"}, total in `Content-Range: <resource> 0-24/319`.

/**
 * A query parameter holding JSON, checked against `schema`; bad JSON says what was expected.
 * JSON escapes (`\u0000`, a lone `\ud800`) only become characters here, so the text check runs on what comes out.
 */
export function jsonParam<T extends z.ZodType>(schema: T, example: string) {
  return z
    .string()
    .transform((text, ctx) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: `must be JSON like ${example}` });
        return z.NEVER;
      }
      const unsafe = findUnsafeText(parsed, '');
      if (unsafe) {
        ctx.addIssue({ code: 'custom', message: unsafe.message, path: unsafe.path.split('.').filter(Boolean) });
        return z.NEVER;
      }
      return parsed;
    })
    .pipe(schema);
}

export const SortOrder = z.enum(['ASC', 'DESC'], { message: "order must be 'ASC' or 'DESC'" });

export function sortParam<const Fields extends readonly [string, ...string[]]>(fields: Fields) {
  return jsonParam(z.tuple([z.enum(fields, { message: `field must be one of ${fields.join(', ')}` }), SortOrder]), `["${fields[0]}","ASC"]`);
}

/** Largest page the list endpoints hand out at once. */
export const MAX_PAGE_SIZE = 500;

export const rangeParam = jsonParam(
  z
    .tuple([
      z.int('start must be a whole number').min(0, 'start must be 0 or more').max(INT4_MAX, `start must be at most ${INT4_MAX}`),
      z.int('end must be a whole number').min(0, 'end must be 0 or more').max(INT4_MAX, `end must be at most ${INT4_MAX}`),
    ])
    .refine(([start, end]) => end >= start, 'end must not be before start')
    .refine(([start, end]) => end - start < MAX_PAGE_SIZE, `at most ${MAX_PAGE_SIZE} rows per page`),
  '[0,24]',
);

// `Content-Range: videos 0-24/319`; an empty page reads `videos */319` (RFC 9110 unsatisfied-range form).
export function contentRange(resource: string, start: number, count: number, total: number): string {
  return count === 0 ? `${resource} */${total}` : `${resource} ${start}-${start + count - 1}/${total}`;
}

/** `:id` of a bigint-keyed resource (audit entries, Vimeo syncs). */
export const IdParams = z.object({ id: Id });
/** `:id` of an integer-keyed resource (videos). */
export const Int4IdParams = z.object({ id: Int4Id });
