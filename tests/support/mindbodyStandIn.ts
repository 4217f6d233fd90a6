import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Database } from '../../server/src/db/client';

/**
 * A local stand-in for the Mindbody Public API v6 (docs/integrations.md): checks Api-Key, SiteId and
 * the staff token, pages with request.limit/request.offset and PaginationResponse, filters by
 * request.lastModifiedDate, and fails on purpose when a test scripts it (429, 5xx, silence).
 */
export interface StandInOptions {
  apiKey?: string;
  siteId?: number;
  username?: string;
  password?: string;
  clients?: Record<string, unknown>[];
  visits?: Record<string, Record<string, unknown>[]>;
  contracts?: Record<string, Record<string, unknown>[]>;
  /** The most records the stand-in serves per page, whatever request.limit asks. */
  maxLimit?: number;
  /** IssueResponse.Expires (site-local, no offset, as Mindbody writes it). */
  tokenExpires?: string;
}

export interface Failure {
  path: string;
  /** Only requests at this request.offset. */
  offset?: number;
  status?: number;
  retryAfter?: string;
  /** Never answer (the client's timeout must fire). */
  hang?: boolean;
  /** Answer 200 with a body that is not JSON. */
  malformed?: boolean;
  /** How many matching requests fail; Infinity for all. */
  times: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  status: number;
}

export const STAND_IN = { apiKey: 'test-api-key', siteId: -99, username: 'owner', password: 'staff-secret' };

export async function startMindbodyStandIn(options: StandInOptions = {}) {
  const apiKey = options.apiKey ?? STAND_IN.apiKey;
  const siteId = options.siteId ?? STAND_IN.siteId;
  const state = {
    clients: options.clients ?? [],
    visits: options.visits ?? {},
    contracts: options.contracts ?? {},
    failures: [] as Failure[],
    tokens: new Set<string>(),
    tokensIssued: 0,
    requests: [] as RecordedRequest[],
  };
  const hanging = new Set<http.ServerResponse>();

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const path = url.pathname.replace(/^\/public\/v6/, '');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      query: url.searchParams,
      headers: req.headers,
      body: raw ? JSON.parse(raw) : null,
      status: 0,
    };
    state.requests.push(record);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, code: string, message: string) => send(status, { Error: { Code: code, Message: message } });

    const offset = Number(url.searchParams.get('request.offset') ?? 0);
    const failure = state.failures.find((f) => f.times > 0 && f.path === path && (f.offset === undefined || f.offset === offset));
    if (failure) {
      failure.times--;
      if (failure.hang) {
        hanging.add(res);
        record.status = -1;
        return;
      }
      if (failure.malformed) {
        record.status = 200;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"Clients": [ {"Id": "1", ');
        return;
      }
      record.status = failure.status!;
      res.writeHead(failure.status!, { 'content-type': 'application/json', ...(failure.retryAfter ? { 'retry-after': failure.retryAfter } : {}) });
      res.end(JSON.stringify({ Error: { Code: failure.status === 429 ? 'TooManyRequests' : 'Unknown', Message: `scripted ${failure.status}` } }));
      return;
    }

    if (req.headers['api-key'] !== apiKey) return error(401, 'DeniedAccess', 'Invalid Api-Key');
    if (req.headers.siteid !== String(siteId)) return error(400, 'InvalidSiteId', 'Unknown SiteId');

    if (req.method === 'POST' && path === '/usertoken/issue') {
      const body = record.body as { Username?: string; Password?: string } | null;
      if (body?.Username !== (options.username ?? STAND_IN.username) || body?.Password !== (options.password ?? STAND_IN.password)) {
        return error(401, 'InvalidStaffCredentials', 'Staff credentials are invalid');
      }
      const token = randomBytes(8).toString('hex');
      state.tokens.add(token);
      state.tokensIssued++;
      return send(200, {
        TokenType: 'Bearer',
        AccessToken: token,
        Expires: options.tokenExpires ?? '2099-01-01T00:00:00',
        User: { Id: 0, FirstName: 'Owner', LastName: 'Studio', Type: 'Owner' },
      });
    }

    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !state.tokens.has(token)) return error(401, 'DeniedAccess', 'Authorization token is invalid or expired');
    if (req.method !== 'GET') return error(405, 'InvalidParameter', 'GET only');

    const limit = Math.min(Number(url.searchParams.get('request.limit') ?? 100), options.maxLimit ?? 200);
    const page = (items: Record<string, unknown>[], key: string) => {
      const slice = items.slice(offset, offset + limit);
      send(200, { PaginationResponse: { RequestedLimit: limit, RequestedOffset: offset, PageSize: slice.length, TotalResults: items.length }, [key]: slice });
    };
    if (path === '/client/clients') {
      const since = url.searchParams.get('request.lastModifiedDate');
      const clients = since ? state.clients.filter((client) => Date.parse(`${String(client.LastModifiedDateTime)}Z`) >= Date.parse(since)) : state.clients;
      return page(clients, 'Clients');
    }
    const clientId = url.searchParams.get('request.clientId');
    if (!clientId) return error(400, 'MissingRequiredFields', 'ClientId is required');
    if (path === '/client/clientvisits') {
      if (!(clientId in state.visits) && !state.clients.some((client) => client.Id === clientId)) return error(404, 'ClientNotFound', 'No such client');
      return page(state.visits[clientId] ?? [], 'Visits');
    }
    if (path === '/client/clientcontracts') return page(state.contracts[clientId] ?? [], 'Contracts');
    return error(404, 'InvalidParameter', `No route ${path}`);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/public/v6`,
    state,
    fail(failure: Failure) {
      state.failures.push(failure);
    },
    /** Requests to one path, in order. */
    calls: (path: string) => state.requests.filter((request) => request.path === path),
    revokeTokens: () => state.tokens.clear(),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type MindbodyStandIn = Awaited<ReturnType<typeof startMindbodyStandIn>>;

/** A raw Mindbody client record (PascalCase, as /client/clients sends it). */
export function rawClient(n: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Id: String(700000 + n),
    UniqueId: 800000 + n,
    FirstName: `First${n}`,
    LastName: `Last${n}`,
    Email: `client${n}@example.test`,
    Status: n % 10 === 0 ? 'Non-Member' : 'Active',
    Active: true,
    LastModifiedDateTime: '2026-01-10T08:00:00',
    ...overrides,
  };
}

/** Empties what an import writes (clients, visits, runs, the day's call count, jobs), so each test starts with none. */
export async function resetMindbodyImports(database: Database) {
  await database.execScript(
    'DELETE FROM mindbody_visits; DELETE FROM mindbody_sync_runs; DELETE FROM mindbody_sync_state; DELETE FROM mindbody_call_days; DELETE FROM clients; DELETE FROM jobs; DELETE FROM job_schedules;',
  );
}
