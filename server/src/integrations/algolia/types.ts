/** One change to an Algolia index: a record to write (whole) or an objectID to delete. */
export type IndexChange =
  { action: 'updateObject'; body: { objectID: string } & Record<string, unknown> } | { action: 'deleteObject'; body: { objectID: string } };

/** Keeps a search service's indexes in step with the database; routes never know which one. */
export interface SearchIndexer {
  mode: 'algolia' | 'sandbox';
  /** Applies changes to an index in one batch call (Algolia: POST /1/indexes/{index}/batch). */
  batch(indexName: string, changes: IndexChange[]): Promise<void>;
  /**
   * Moves a freshly built index over another one, atomically (Algolia's "move" operation). The
   * destination takes the source's settings, synonyms and rules too: see copyConfiguration.
   */
  replaceIndex(fromIndex: string, toIndex: string): Promise<void>;
  /** Deletes an index (records and configuration); a missing one is fine. */
  deleteIndex(indexName: string): Promise<void>;
  /** Copies settings, synonyms and rules, not records (copy with a scope); a missing source copies nothing. */
  copyConfiguration(fromIndex: string, toIndex: string): Promise<void>;
}

export class AlgoliaError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AlgoliaError';
  }
}
