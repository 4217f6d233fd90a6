import autocannon from 'autocannon';

export interface LoadResult {
  connections: number;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadRequest {
  method?: 'GET' | 'POST';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Closed-loop load from this process against loopback only, bounded in time. */
export async function load(options: {
  url: string;
  cookie: string;
  connections: number;
  seconds: number;
  paths?: string[];
  requests?: LoadRequest[];
}): Promise<LoadResult> {
  const requests: LoadRequest[] = options.requests ?? (options.paths ?? []).map((path) => ({ path }));
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    headers: { cookie: options.cookie },
    requests: requests.map(({ method = 'GET', path, body, headers }) => ({
      method,
      path,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    })),
  });
  return {
    connections: options.connections,
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
