import { fetchUtils } from 'react-admin';
import { config as defaultConfig, type ConsoleConfig } from './config';

export type HttpResponse = Awaited<ReturnType<typeof fetchUtils.fetchJson>>;

/** Takes a server path ('/api/...'); rejects with react-admin's HttpError (with `status`) on non-2xx answers. */
export type HttpClient = (path: string, options?: fetchUtils.Options) => Promise<HttpResponse>;

// The session is a cookie set by the backend, so every call must carry credentials,
// including cross-origin ones when VITE_API_BASE_URL points at another host.
export const createHttpClient =
  (config: Pick<ConsoleConfig, 'apiUrl'> = defaultConfig): HttpClient =>
  (path, options = {}) =>
    fetchUtils.fetchJson(config.apiUrl(path), { ...options, credentials: 'include' });

export const httpClient: HttpClient = createHttpClient();

/** True for react-admin/fetchJson errors carrying an HTTP status. */
export const hasStatus = (error: unknown): error is { status: number } =>
  typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';
