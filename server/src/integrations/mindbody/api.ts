import { MindbodyError } from './errors';
import { mapClient, mapContract, mapVisit, type MindbodyClientRecord, type MindbodyContractRecord, type MindbodyVisitRecord } from './mapping';

export type QueryValue = string | number | boolean | Date | undefined | null | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

/**
 * Counts Mindbody calls against a budget: `spend` runs before every HTTP request (retries and
 * token issues included) and throws a MindbodyError of kind 'budget' to refuse it.
 */
export interface CallMeter {
  spend(): void;
}

/** One GET against a site; the live client speaks HTTP, the sandbox answers from generated data. */
export interface MindbodyTransport {
  get(siteId: number, path: string, query: Query, signal?: AbortSignal, meter?: CallMeter): Promise<unknown>;
  /** Throws CircuitOpenError while repeated failures keep the live API's breaker open. */
  checkAvailable?(): void;
}

export interface MindbodyClientPage {
  clients: MindbodyClientRecord[];
  /** Records of the page without an Id (counted, not imported). */
  skipped: number;
  offset: number;
  /** Offset of the next page, null on the last one. */
  nextOffset: number | null;
  total: number | null;
}

export interface ClientPageOptions {
  /** Only clients changed since then (request.lastModifiedDate); all clients when absent. */
  modifiedSince?: Date | null;
  /** Record offset to start at (a resumed listing). */
  offset?: number;
  signal?: AbortSignal;
  meter?: CallMeter;
}

/** The one Mindbody interface the rest of the server uses (live client or sandbox alike). */
export interface MindbodyApi {
  readonly mode: 'live' | 'sandbox';
  /** The sites this installation imports. */
  readonly siteIds: readonly number[];
  /** GET /client/clients, page by page (request.limit=200, request.offset, request.lastModifiedDate). */
  clientPages(siteId: number, options?: ClientPageOptions): AsyncGenerator<MindbodyClientPage>;
  /** GET /client/clientvisits for one client between two dates, every page. */
  getClientVisits(
    siteId: number,
    clientId: string,
    range: { startDate: Date; endDate: Date },
    signal?: AbortSignal,
    meter?: CallMeter,
  ): Promise<MindbodyVisitRecord[]>;
  /** GET /client/clientcontracts for one client, every page, mapped to our contract fields. */
  getClientContracts(siteId: number, clientId: string, signal?: AbortSignal, meter?: CallMeter): Promise<MindbodyContractRecord[]>;
  /** Throws CircuitOpenError ("retry in N s") while repeated failures keep the breaker open; the sandbox never does. */
  checkAvailable?(): void;
}

export const PAGE_LIMIT = 200;
// A listing that never ends (a server ignoring request.offset) must not loop forever.
const MAX_PAGES = 10_000;

interface RawPage {
  items: Record<string, unknown>[];
  offset: number;
  nextOffset: number | null;
  total: number | null;
}

async function* rawPages(
  transport: MindbodyTransport,
  siteId: number,
  path: string,
  itemsKey: string,
  query: Query,
  start: number,
  signal?: AbortSignal,
  meter?: CallMeter,
): AsyncGenerator<RawPage> {
  let offset = start;
  for (let page = 0; page < MAX_PAGES; page++) {
    const body = await transport.get(siteId, path, { ...query, 'request.limit': PAGE_LIMIT, 'request.offset': offset }, signal, meter);
    const items = (body as Record<string, unknown> | null)?.[itemsKey];
    if (!Array.isArray(items)) throw new MindbodyError(`Mindbody answered ${path} without a ${itemsKey} list`, 'malformed');
    const pagination = (body as Record<string, unknown>).PaginationResponse as Record<string, unknown> | undefined;
    const total = typeof pagination?.TotalResults === 'number' ? pagination.TotalResults : null;
    // Advance by what arrived: Mindbody may serve fewer than request.limit per page.
    const next = offset + items.length;
    const last = items.length === 0 || (total !== null ? next >= total : items.length < PAGE_LIMIT);
    yield {
      items: items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null),
      offset,
      nextOffset: last ? null : next,
      total,
    };
    if (last) return;
    offset = next;
  }
  throw new MindbodyError(`Mindbody kept paging ${path} past ${MAX_PAGES} pages`, 'malformed');
}

async function allItems<T>(pages: AsyncGenerator<RawPage>, map: (raw: Record<string, unknown>) => T | null): Promise<T[]> {
  const result: T[] = [];
  for await (const page of pages) {
    for (const raw of page.items) {
      const mapped = map(raw);
      if (mapped !== null) result.push(mapped);
    }
  }
  return result;
}

export interface MindbodyApiMeta {
  mode: 'live' | 'sandbox';
  siteIds: readonly number[];
  /** The IANA zone a site writes its offset-less date-times in; UTC when not given. */
  timeZoneOf?: (siteId: number) => string;
}

export function createMindbodyApi(transport: MindbodyTransport, meta: MindbodyApiMeta): MindbodyApi {
  const zoneOf = meta.timeZoneOf ?? (() => 'UTC');
  return {
    mode: meta.mode,
    siteIds: meta.siteIds,
    checkAvailable: transport.checkAvailable,

    async *clientPages(siteId, options = {}) {
      const query: Query = { 'request.includeInactive': true };
      if (options.modifiedSince) query['request.lastModifiedDate'] = options.modifiedSince;
      const timeZone = zoneOf(siteId);
      for await (const page of rawPages(transport, siteId, '/client/clients', 'Clients', query, options.offset ?? 0, options.signal, options.meter)) {
        const clients = page.items.map((raw) => mapClient(raw, timeZone)).filter((client): client is MindbodyClientRecord => client !== null);
        yield { clients, skipped: page.items.length - clients.length, offset: page.offset, nextOffset: page.nextOffset, total: page.total };
      }
    },

    getClientVisits(siteId, clientId, range, signal, meter) {
      const query: Query = { 'request.clientId': clientId, 'request.startDate': range.startDate, 'request.endDate': range.endDate };
      const timeZone = zoneOf(siteId);
      return allItems(rawPages(transport, siteId, '/client/clientvisits', 'Visits', query, 0, signal, meter), (raw) => mapVisit(raw, timeZone));
    },

    getClientContracts(siteId, clientId, signal, meter) {
      return allItems(rawPages(transport, siteId, '/client/clientcontracts', 'Contracts', { 'request.clientId': clientId }, 0, signal, meter), (raw) =>
        mapContract(raw),
      );
    },
  };
}

/** request.* query string: arrays repeat the name, dates go as ISO 8601 UTC. */
export function toSearchParams(query: Query): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, value instanceof Date ? value.toISOString() : String(value));
  }
  return params;
}
