import { z } from 'zod';

// ra-data-simple-rest's query dialect for our /api/admin/v1 extensions:
// ?sort=["title","ASC"]&range=[0,24]&filter={"q":"yoga"}, total in `Content-Range: <resource> 0-24/319`.

/** A query parameter holding JSON, checked against `schema`; bad JSON says what was expected. */
export function jsonParam<T extends z.ZodType>(schema: T, example: string) {
  return z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: `must be JSON like ${example}` });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

export const SortOrder = z.enum(['ASC', 'DESC'], { message: "order must be 'ASC' or 'DESC'" });

export function sortParam<const Fields extends readonly [string, ...string[]]>(fields: Fields) {
  return jsonParam(
    z.tuple([z.enum(fields, { message: `field must be one of ${fields.join(', ')}` }), SortOrder]),
    `["${fields[0]}","ASC"]`,
  );
}

/** Largest page the list endpoints hand out at once. */
export const MAX_PAGE_SIZE = 500;

export const rangeParam = jsonParam(
  z
    .tuple([z.int().min(0, 'start must be 0 or more'), z.int().min(0, 'end must be 0 or more')])
    .refine(([start, end]) => end >= start, 'end must not be before start')
    .refine(([start, end]) => end - start < MAX_PAGE_SIZE, `at most ${MAX_PAGE_SIZE} rows per page`),
  '[0,24]',
);

// `Content-Range: videos 0-24/319`; an empty page reads `videos */319` (RFC 9110 unsatisfied-range form).
export function contentRange(resource: string, start: number, count: number, total: number): string {
  return count === 0 ? `${resource} */${total}` : `${resource} ${start}-${start + count - 1}/${total}`;
}

export const IdParams = z.object({ id: z.coerce.number().int('must be a whole number').positive('must be a positive id') });
