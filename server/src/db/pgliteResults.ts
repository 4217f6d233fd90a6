import { parse, protocol, types, type QueryOptions, type Results } from '@electric-sql/pglite';

type Parsers = Record<number | string, types.Parser>;

/**
 * Rows from PostgreSQL's messages, on the server's thread, as PGlite's query() makes them in its
 * own: PGlite's parsers, plus its parsers for the catalogue's array types (which it makes when it
 * opens), plus the caller's parsers for its types.
 */
export function resultMaker(arrayTypes: Array<[number, number]>) {
  const base: Parsers = { ...types.parsers };
  for (const [arrayOid, elementOid] of arrayTypes) {
    base[arrayOid] = (value: string) => types.arrayParser(value, base[elementOid]!, arrayOid);
  }
  // A caller may pass the same few parser sets with every statement: merged once per set of types
  // rather than copying every parser per statement, as PGlite does.
  const merged = new Map<string, Parsers>();
  const parsersFor = (extra: Parsers | undefined): Parsers => {
    if (!extra) return base;
    const key = Object.keys(extra).join(',');
    let parsers = merged.get(key);
    if (!parsers) merged.set(key, (parsers = { ...base, ...extra }));
    return parsers;
  };

  return function toResults<T>(raw: Uint8Array, options: QueryOptions | undefined): Results<T> {
    const backendMessages: Parameters<typeof parse.parseResults>[0] = [];
    new protocol.Parser().parse(raw, (message) => void backendMessages.push(message));
    const parsers = parsersFor(options?.parsers as Parsers | undefined);
    const rowOptions = options?.rowMode ? { rowMode: options.rowMode } : undefined;
    return parse.parseResults(backendMessages, parsers, rowOptions)[0] as Results<T>;
  };
}
