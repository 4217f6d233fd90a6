import type { SearchIndexer } from './types';

/**
 * The embedded default: our own endpoint answers searches straight from the database (migration
 * 0015 keeps its tables current), so there is no outside index to keep in step.
 */
export function createSandboxIndexer(): SearchIndexer {
  return {
    mode: 'sandbox',
    async batch() {},
    async replaceIndex() {},
    async deleteIndex() {},
    async copyConfiguration() {},
  };
}
