import autocannon from 'autocannon';

export interface LoadResult {
  connections: number;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** Closed-loop load from this process against loopback only, bounded in time. */
export async function load(options: { url: string; cookie: string; connections: number; seconds: number; paths: string[] }): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    headers: { cookie: options.cookie },
    requests: options.paths.map((path) => ({ method: 'GET', path })),
  });
  return {
    connections: options.connections,
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
