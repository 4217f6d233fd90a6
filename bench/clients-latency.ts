/**
 * Latency of the client lists and the client-details load against a running server.
 *
 *   DATA_DIR=/tmp/bench/data npm run seed -- --clients 1000000
 *   DATA_DIR=/tmp/bench/data SEED_DEMO=false STAFF_EMAIL=bench@studio.test STAFF_PASSWORD=benchpass1 PORT=3300 npm run serve
 *   node --import tsx bench/clients-latency.ts --base http://127.0.0.1:3300 --email bench@studio.test --password benchpass1
 *
 * Each case sends --requests sequential requests (after --warmup unmeasured ones) and reports
 * p50/p95/max in milliseconds, measured from sending the request to having read the whole body.
 * With --server-pid (a server on this machine) it also reports the CPU time the server process
 * spent on each request (from /proc/<pid>/task/<tid>/schedstat): on a busy machine the wall
 * clock mostly measures waiting for a core, the CPU time what an idle core would take.
 * `--json` prints the results as JSON for the benchmarks harness.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { clientListCases } from './clientListCases';

export interface CaseResult {
  name: string;
  requests: number;
  p50: number;
  p95: number;
  max: number;
  /** Server CPU milliseconds per request, when --server-pid was given. */
  cpu?: { p50: number; p95: number; max: number };
  targetP95?: number;
}

export interface LatencyOptions {
  base: string;
  email: string;
  password: string;
  requests?: number;
  warmup?: number;
  serverPid?: number;
  log?: (line: string) => void;
}

/** Nanoseconds every thread of a process has run on a CPU so far (Linux). */
export function cpuNanoseconds(pid: number): number {
  let total = 0;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended between listing and reading
    }
  }
  return total;
}

/** A deterministic pseudo-random sequence, so two runs ask for the same pages and clients. */
function sequence(seed: number) {
  let state = seed >>> 0;
  return (max: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % max;
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const round = (ms: number) => Math.round(ms * 10) / 10;

export async function signIn(base: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${base}/login`, {
    method: 'POST',
    body: new URLSearchParams({ email, password }),
    redirect: 'manual',
  });
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('studio_session='));
  if (response.status !== 303 || !cookie) throw new Error(`sign-in failed with ${response.status}`);
  return cookie.split(';')[0]!;
}

/** What the cases need from an HTTP client signed in as staff (this script's, or the harness's BenchClient). */
export interface StaffApi {
  get<T = unknown>(path: string): Promise<T>;
  post<T = unknown>(path: string, body: unknown): Promise<T>;
}

export interface LatencyCase {
  name: string;
  /** The budget for this figure: p95 at most this many milliseconds. */
  targetP95?: number;
  run(): Promise<unknown>;
}

type ClientRow = { _id: number; email_address: string | null; mb_client_id: string | null; mb_site_id: number | null };

/**
 * The client-list and client-details requests staff make, on whatever data set the server has.
 * Deep pages are reached the way the console reaches them: by cursor (bench/clientListCases.ts).
 */
export async function clientLatencyCases(api: StaffApi): Promise<LatencyCase[]> {
  const sample = await api.get<{ clients: ClientRow[] }>('/api/client/v1/clients/1?page=1&perPage=500&sort=email_address');
  const clients = sample.clients;
  const pick = sequence(42);
  const budget = 50;

  return [
    ...(await clientListCases(api)),
    { name: 'client details', targetP95: budget, run: () => api.get(`/api/client/v1/client-details/${clients[pick(clients.length)]!._id}`) },
    ...clientPageCalls(api, clients, pick)
      .slice(1)
      .map(([name, call]) => ({ name: `client page alone: ${name}`, run: call })),
    {
      name: 'client page: details and 5 sections in parallel',
      targetP95: 100,
      run: () => Promise.all(clientPageCalls(api, clients, pick, pick(clients.length)).map(([, call]) => call())),
    },
  ];
}

/** The six calls the client details page makes when it opens, for one client (random unless given). */
function clientPageCalls(api: StaffApi, clients: ClientRow[], pick: (max: number) => number, index?: number): Array<[string, () => Promise<unknown>]> {
  const chosen = () => clients[index ?? pick(clients.length)]!;
  const body = (client: ClientRow) => ({ email: client.email_address, mb_client_id: client.mb_client_id });
  const keys = (client: ClientRow) => ({
    site: client.mb_site_id ?? 'null',
    mb: encodeURIComponent(client.mb_client_id ?? 'null'),
    email: encodeURIComponent(client.email_address ?? 'null'),
  });
  return [
    ['details', () => api.get(`/api/client/v1/client-details/${chosen()._id}`)],
    ['recently viewed videos', () => api.post('/api/client/v1/client-details/recently-viewed-videos', body(chosen()))],
    ['favorites', () => api.post('/api/client/v1/client-details/favorites-videos', body(chosen()))],
    [
      'purchases',
      () => {
        const { site, mb, email } = keys(chosen());
        return api.get(`/api/client/v1/client-details/${site}/${mb}/purchases?email=${email}`);
      },
    ],
    [
      'debug info',
      () => {
        const { site, mb, email } = keys(chosen());
        return api.get(`/api/client/v1/client-details/${site}/${mb}/${email}/debug?page=1&limit=10`);
      },
    ],
    [
      'contracts',
      () => {
        const { site, mb } = keys(chosen());
        return api.get(`/api/client/v1/client-details/${site}/${mb}/contracts`);
      },
    ],
  ];
}

export async function runClientsLatency(options: LatencyOptions): Promise<CaseResult[]> {
  const requests = options.requests ?? 200;
  const warmup = options.warmup ?? 10;
  const log = options.log ?? (() => undefined);
  const cookie = await signIn(options.base, options.email, options.password);
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${options.base}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as T;
  };
  const cases = await clientLatencyCases({ get: (path) => call('GET', path), post: (path, body) => call('POST', path, body) });

  const results: CaseResult[] = [];
  const summary = (values: number[]) => {
    values.sort((a, b) => a - b);
    return { p50: round(percentile(values, 50)), p95: round(percentile(values, 95)), max: round(values[values.length - 1]!) };
  };
  for (const testCase of cases) {
    for (let i = 0; i < warmup; i++) await testCase.run();
    const times: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < requests; i++) {
      const cpuBefore = options.serverPid ? cpuNanoseconds(options.serverPid) : 0;
      const started = performance.now();
      await testCase.run();
      times.push(performance.now() - started);
      if (options.serverPid) cpu.push((cpuNanoseconds(options.serverPid) - cpuBefore) / 1e6);
    }
    const result: CaseResult = {
      name: testCase.name,
      requests,
      ...summary(times),
      ...(cpu.length ? { cpu: summary(cpu) } : {}),
      ...(testCase.targetP95 ? { targetP95: testCase.targetP95 } : {}),
    };
    results.push(result);
    const cell = (value: number) => String(value).padStart(7);
    log(
      `${result.name.padEnd(52)} p50 ${cell(result.p50)} ms  p95 ${cell(result.p95)} ms  max ${cell(result.max)} ms` +
        (result.targetP95 ? ` (≤ ${result.targetP95})` : '       ') +
        (result.cpu ? `   | server CPU p50 ${cell(result.cpu.p50)} ms  p95 ${cell(result.cpu.p95)} ms` : ''),
    );
  }
  return results;
}

const isMain = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isMain) {
  const { values } = parseArgs({
    options: {
      base: { type: 'string', default: 'http://127.0.0.1:3300' },
      email: { type: 'string', default: process.env.STAFF_EMAIL ?? 'bench@studio.test' },
      password: { type: 'string', default: process.env.STAFF_PASSWORD ?? 'benchpass1' },
      requests: { type: 'string', default: '200' },
      warmup: { type: 'string', default: '10' },
      'server-pid': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const results = await runClientsLatency({
    base: values.base.replace(/\/$/, ''),
    email: values.email,
    password: values.password,
    requests: Number(values.requests),
    warmup: Number(values.warmup),
    serverPid: values['server-pid'] ? Number(values['server-pid']) : undefined,
    log: values.json ? undefined : (line) => console.log(line),
  });
  if (values.json) console.log(JSON.stringify(results, null, 2));
}
