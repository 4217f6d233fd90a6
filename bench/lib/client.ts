import type { RunningServer } from '../../tests/support/serverProcess';
import { E2E_STAFF } from '../../tests/support/serverProcess';

/** An HTTP client for one signed-in staff session, as a browser would hold it. */
export interface BenchClient {
  url: string;
  cookie: string;
  get<T = unknown>(path: string): Promise<T>;
  post<T = unknown>(path: string, body: unknown): Promise<T>;
  put<T = unknown>(path: string, body: unknown): Promise<T>;
}

export async function signedInClient(server: RunningServer): Promise<BenchClient> {
  const response = await fetch(`${server.url}/login`, { method: 'POST', body: new URLSearchParams(E2E_STAFF), redirect: 'manual' });
  if (response.status !== 303) throw new Error(`bench sign-in failed: ${response.status}`);
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 200)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return {
    url: server.url,
    cookie,
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    put: (path, body) => call('PUT', path, body),
  };
}
