import type { z } from 'zod';

// Reads a route's zod schemas (fastify keeps them in route.schema) so that the attack tests send
// every field a route declares, including routes added later, without a list kept by hand.

type Schema = z.ZodType;
type Def = { type: string; [key: string]: unknown };

const def = (schema: Schema): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

export const isZod = (value: unknown): value is Schema => Boolean(value && typeof value === 'object' && '_zod' in value);

function unwrap(schema: Schema): Schema {
  let current = schema;
  for (let depth = 0; depth < 20 && WRAPPERS.has(def(current).type); depth++) current = def(current).innerType as Schema;
  return current;
}

/** The fields of an object schema, looking through optional/default wrappers, pipes, unions and intersections. */
export function objectShape(schema: Schema): Record<string, Schema> | undefined {
  const inner = unwrap(schema);
  const d = def(inner);
  if (d.type === 'object') return d.shape as Record<string, Schema>;
  if (d.type === 'pipe') return objectShape(d.in as Schema) ?? objectShape(d.out as Schema);
  if (d.type === 'union') {
    for (const option of d.options as Schema[]) {
      const shape = objectShape(option);
      if (shape) return shape;
    }
  }
  if (d.type === 'intersection') return { ...objectShape(d.left as Schema), ...objectShape(d.right as Schema) };
  if (d.type === 'lazy') return objectShape((d.getter as () => Schema)());
  return undefined;
}

/** For a query parameter holding JSON (`filter={...}`, `range=[a,b]`): the schema of what it holds. */
export function jsonParamTarget(schema: Schema): Schema | undefined {
  const d = def(unwrap(schema));
  if (d.type !== 'pipe') return undefined;
  const source = def(unwrap(d.in as Schema));
  const takesText = source.type === 'string' || (source.type === 'pipe' && def(unwrap(source.in as Schema)).type === 'string');
  return takesText && def(unwrap(d.out as Schema)).type !== 'transform' ? (d.out as Schema) : undefined;
}

export interface Field {
  /** Where it goes: a path parameter, a query parameter, a key inside a JSON query parameter, or a body path. */
  part: 'params' | 'query' | 'queryJson' | 'body';
  /** For `queryJson`, the query parameter; otherwise the first element of `path`. */
  name: string;
  path: string[];
  schema: Schema;
}

function bodyFields(schema: Schema, prefix: string[]): Field[] {
  const shape = objectShape(schema);
  if (!shape) return [];
  return Object.entries(shape).flatMap(([key, child]) => {
    const path = [...prefix, key];
    const inner = def(unwrap(child));
    // A list of objects (the search's `requests`) is attacked through its first element.
    const nested = inner.type === 'object' ? bodyFields(child, path) : inner.type === 'array' ? bodyFields(inner.element as Schema, [...path, '0']) : [];
    return nested.length > 0 ? nested : [{ part: 'body' as const, name: path[0]!, path, schema: child }];
  });
}

/** Every field a route declares in its params, querystring and body schemas; path parameters also from the URL. */
export function routeFields(url: string, schema: Record<string, unknown> | undefined): Field[] {
  const fields: Field[] = [];
  const paramShape = isZod(schema?.params) ? objectShape(schema.params) : undefined;
  for (const [, name] of url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)) {
    fields.push({ part: 'params', name: name!, path: [name!], schema: paramShape?.[name!] ?? (undefined as unknown as Schema) });
  }
  const query = isZod(schema?.querystring) ? objectShape(schema.querystring) : undefined;
  for (const [name, child] of Object.entries(query ?? {})) {
    fields.push({ part: 'query', name, path: [name], schema: child });
    const target = jsonParamTarget(child);
    const inner = target && objectShape(target);
    for (const [key, value] of Object.entries(inner ?? {})) fields.push({ part: 'queryJson', name, path: [key], schema: value });
  }
  if (isZod(schema?.body)) fields.push(...bodyFields(schema.body, []));
  return fields;
}

export const accepts = (schema: Schema | undefined, value: unknown) => Boolean(schema && (schema as z.ZodType).safeParse(value).success);

/**
 * A whole-number field (an id, a page, a level): takes 7 or "7" (or another small number), refuses
 * text and fractions. Decided from what the schema should take, not from how it coerces, so a
 * schema that quietly coerces `true` to 1 still counts and gets the id attacks.
 */
export function isWholeNumberField(field: Field): boolean {
  const takesNumber = [1, 3, 7, 30].some((n) => accepts(field.schema, n) || accepts(field.schema, String(n)));
  return takesNumber && !accepts(field.schema, 'abc') && !accepts(field.schema, 7.5) && !accepts(field.schema, '7.5');
}

/** A query field that takes several values by design (`?status=A&status=B`): a repeated key is a list there, not a confusion. */
export const takesList = (field: Field) => field.part === 'query' && !!field.schema && accepts(field.schema, ['1', '2']);

/** A value the field's schema takes, from `candidates` in order; undefined when none fits. */
export function sampleValue(field: Field, candidates: unknown[]): unknown {
  if (!field.schema) return candidates.find((value) => typeof value === 'string');
  const d = def(unwrap(field.schema));
  const own = d.type === 'enum' ? [Object.values(d.entries as Record<string, unknown>)[0]] : d.type === 'literal' ? [(d.values as unknown[])[0]] : [];
  return [...own, ...candidates].find((value) => accepts(field.schema, value));
}

/** Whether a request part may leave the field out. */
export const isOptional = (field: Field) => !field.schema || accepts(field.schema, undefined);

/** Writes `value` at `path` in a copy of `target`; a numeric step makes a list. */
export function withValue(target: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path;
  const copy: Record<string, unknown> = Array.isArray(target) ? ([...target] as unknown as Record<string, unknown>) : { ...target };
  if (rest.length === 0) copy[head!] = value;
  else
    copy[head!] = withValue(
      (target[head!] as Record<string, unknown> | undefined) ?? (/^\d+$/.test(rest[0]!) ? ([] as unknown as Record<string, unknown>) : {}),
      rest,
      value,
    );
  return copy;
}
