import type { IndexChange, SearchIndexer } from './types';

/**
 * The embedded default: our own endpoint answers searches straight from the database (migration
 * 0015 keeps its tables current), so there is no outside index to keep in step.
 */
export function createSandboxIndexer(): SearchIndexer & { batches: { indexName: string; changes: IndexChange[] }[] } {
  // What would have gone to Algolia (an erasure's deletion, say), for the tests to read.
  const batches: { indexName: string; changes: IndexChange[] }[] = [];
  return {
    mode: 'sandbox',
    batches,
    async batch(indexName, changes) {
      batches.push({ indexName, changes });
    },
    async replaceIndex() {},
    async deleteIndex() {},
    async copyConfiguration() {},
  };
}
