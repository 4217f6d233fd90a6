import { liteClient, type LiteClient } from 'algoliasearch/lite';
import { SEARCH_HOST_SELF } from '@contract/searchConfig';
import type { ConsoleConfig } from '../providers/config';
import { searchTimeouts } from './searchRules';

type Host = { url: string; accept: 'read' | 'readWrite' | 'write'; protocol: 'http' | 'https'; port?: number };

/**
 * Where searches go: '' = hosted Algolia's own hosts; 'self' = our endpoint on the console's
 * origin (plus API base and server prefix); otherwise a host, optionally with protocol, port and path.
 */
export function searchHosts(
  config: Pick<ConsoleConfig, 'algolia' | 'apiBaseUrl' | 'serverPrefix'>,
  origin = globalThis.location?.origin ?? '',
): Host[] | undefined {
  const { host } = config.algolia;
  if (!host) return undefined;
  const text = host === SEARCH_HOST_SELF ? `${config.apiBaseUrl || origin}${config.serverPrefix}` : host;
  const url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  const path = url.pathname.replace(/\/+$/, '');
  return [{ url: `${url.hostname}${path}`, accept: 'readWrite', protocol, ...(url.port ? { port: Number(url.port) } : {}) }];
}

/** The search client, or null (logged as the spec says) when it cannot be set up. */
export function createSearchClient(config: Pick<ConsoleConfig, 'algolia' | 'apiBaseUrl' | 'serverPrefix'>): LiteClient | null {
  try {
    const { appId, searchKey } = config.algolia;
    const hosts = searchHosts(config);
    // The credentials travel as query parameters (the browser build's default; the node
    // build, used by tests, would send headers).
    return liteClient(appId, searchKey, {
      timeouts: searchTimeouts(config.algolia.host),
      authMode: 'WithinQueryParameters',
      ...(hosts ? { hosts } : {}),
    });
  } catch (error) {
    console.error('FAILED TO INIT SEARCH CLIENT!', error);
    return null;
  }
}
