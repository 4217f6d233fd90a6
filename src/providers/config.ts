/**
 * Runtime configuration of the console, read from Vite's `import.meta.env`.
 * `createConfig` takes the env object as a parameter so tests can build
 * configurations with other bases/prefixes without touching globals.
 */
export interface ConsoleEnv {
  VITE_API_BASE_URL?: string;
  VITE_SERVER_PREFIX?: string;
  VITE_LOGIN_URL?: string;
  VITE_ALGOLIA_APP_ID?: string;
  VITE_ALGOLIA_SEARCH_KEY?: string;
  VITE_ALGOLIA_HOST?: string;
}

import { RUNTIME_CONFIG_ELEMENT_ID, type RuntimeConfig } from '@contract/searchConfig';

export interface ConsoleConfig {
  /** '' means "same origin as the console". */
  apiBaseUrl: string;
  /** Path prefix the server is mounted under ('' or e.g. '/studio'). */
  serverPrefix: string;
  /** host: '' = Algolia's hosts, 'self' = our own endpoint on the console's origin, else a URL. */
  algolia: { appId: string; searchKey: string; host: string };
  apiUrl(path: string): string;
  loginUrl(): string;
  logoutUrl(): string;
}

const trimTrailingSlashes = (value: string) => value.replace(/\/+$/, '');
const withLeadingSlash = (value: string) => (value === '' || value.startsWith('/') ? value : `/${value}`);
const isAbsoluteHttpUrl = (value: string) => /^https?:\/\//i.test(value);

/** What the server put into the page (server/src/routes/console.ts); {} when absent or broken. */
export const readRuntimeConfig = (doc: Document | undefined = globalThis.document): RuntimeConfig => {
  try {
    const text = doc?.getElementById(RUNTIME_CONFIG_ELEMENT_ID)?.textContent;
    return text ? (JSON.parse(text) as RuntimeConfig) : {};
  } catch {
    return {};
  }
};

export const createConfig = (env: ConsoleEnv, runtime: RuntimeConfig = {}): ConsoleConfig => {
  const apiBaseUrl = trimTrailingSlashes((env.VITE_API_BASE_URL ?? '').trim());
  const serverPrefix = withLeadingSlash(trimTrailingSlashes((env.VITE_SERVER_PREFIX ?? '').trim()));
  const rawLoginUrl = (env.VITE_LOGIN_URL ?? '').trim() || '/login';

  const apiUrl = (path: string) => `${apiBaseUrl}${serverPrefix}${withLeadingSlash(path)}`;

  return {
    apiBaseUrl,
    serverPrefix,
    // Build-time settings win; without them, the ones the server serves with the page.
    algolia: (env.VITE_ALGOLIA_APP_ID ?? '').trim()
      ? {
          appId: (env.VITE_ALGOLIA_APP_ID ?? '').trim(),
          searchKey: (env.VITE_ALGOLIA_SEARCH_KEY ?? '').trim(),
          host: (env.VITE_ALGOLIA_HOST ?? '').trim(),
        }
      : {
          appId: (runtime.algolia?.appId ?? '').trim(),
          searchKey: (runtime.algolia?.searchKey ?? '').trim(),
          host: (runtime.algolia?.host ?? '').trim(),
        },
    apiUrl,
    // The login page lives on the backend: a path is resolved against the server, an absolute URL (e.g. an IdP) is kept.
    loginUrl: () => (isAbsoluteHttpUrl(rawLoginUrl) ? rawLoginUrl : apiUrl(rawLoginUrl)),
    logoutUrl: () => apiUrl('/logout'),
  };
};

export const config: ConsoleConfig = createConfig(import.meta.env as ConsoleEnv, readRuntimeConfig());

export const apiUrl = (path: string) => config.apiUrl(path);
export const loginUrl = () => config.loginUrl();
export const logoutUrl = () => config.logoutUrl();
