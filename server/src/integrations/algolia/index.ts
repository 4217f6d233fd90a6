import type { Config } from '../../config';
import { createAlgoliaClient } from './client';
import { createSandboxIndexer } from './sandbox';
import type { SearchIndexer } from './types';

export type { IndexChange, SearchIndexer } from './types';
export { AlgoliaError } from './types';

/** Hosted Algolia when ALGOLIA_APP_ID, ALGOLIA_ADMIN_KEY and ALGOLIA_SEARCH_KEY are set; the sandbox otherwise. */
export function createSearchIndexer(config: Config): SearchIndexer {
  if (!config.algolia) return createSandboxIndexer();
  const { appId, adminKey, apiUrl } = config.algolia;
  return createAlgoliaClient({ appId, adminKey, ...(apiUrl ? { hosts: [apiUrl] } : {}) });
}
