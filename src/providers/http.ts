import { fetchUtils } from 'react-admin';
import { config as defaultConfig, type ConsoleConfig } from './config';
import { isOutage, serverReachability, type ServerReachability } from './serverReachability';

export type HttpResponse = Awaited<ReturnType<typeof fetchUtils.fetchJson>>;

/** Takes a server path ('/api/...'); rejects with react-admin's HttpError (with `status`) on non-2xx answers. */
export type HttpClient = (path: string, options?: fetchUtils.Options) => Promise<HttpResponse>;

// The session is a cookie set by the backend, so every call must carry credentials,
// including cross-origin ones when VITE_API_BASE_URL points at another host.
// Each call also tells whether the server is there (src/providers/serverReachability.ts).
export const createHttpClient =
  (config: Pick<ConsoleConfig, 'apiUrl'> = defaultConfig, reachability: Pick<ServerReachability, 'answered' | 'failed'> = serverReachability): HttpClient =>
  (path, options = {}) =>
    fetchUtils.fetchJson(config.apiUrl(path), { ...options, credentials: 'include' }).then(
      (response) => {
        reachability.answered();
        return response;
      },
      (error: unknown) => {
        if (isOutage(error)) reachability.failed(error);
        else reachability.answered();
        throw error;
      },
    );

export const httpClient: HttpClient = createHttpClient();

/** True for react-admin/fetchJson errors carrying an HTTP status. */
export const hasStatus = (error: unknown): error is { status: number } =>
  typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';

/** How long a GET started early waits for the call it was started for. */
export const EARLY_GET_TTL_MS = 15_000;

/**
 * GETs started before anything asks for them (the data of the page the console opens on, fetched
 * beside its code: src/App.tsx), each handed to the first identical call. `recorder` is an HttpClient
 * whose GETs are kept that way; calls through `http` take a kept answer once, or ask the server.
 */
export const withEarlyGets = (http: HttpClient, now: () => number = Date.now) => {
  const early = new Map<string, { answer: Promise<HttpResponse>; startedAt: number }>();
  const recorder: HttpClient = (path, options = {}) => {
    if (options.method && options.method !== 'GET') return Promise.reject(new Error(`Only GETs start early, not ${options.method} ${path}`));
    const answer = http(path, options);
    // A failure is the taker's to handle; one never taken must not be reported as unhandled.
    answer.catch(() => undefined);
    early.set(path, { answer, startedAt: now() });
    return answer;
  };
  const taking: HttpClient = (path, options = {}) => {
    const kept = !options.method || options.method === 'GET' ? early.get(path) : undefined;
    if (kept) {
      early.delete(path);
      if (now() - kept.startedAt <= EARLY_GET_TTL_MS) return kept.answer;
    }
    return http(path, options);
  };
  return { http: taking, recorder };
};
