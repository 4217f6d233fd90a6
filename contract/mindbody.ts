import { z } from 'zod';

/** One site's import run (GET /api/admin/v1/mindbody/sync). */
export const MindbodySyncRun = z.object({
  id: z.number().int(),
  site_id: z.number().int(),
  kind: z.enum(['full', 'incremental']),
  status: z.enum(['running', 'succeeded', 'failed']),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  /** request.lastModifiedDate of an incremental run. */
  modified_since: z.string().nullable(),
  /** Mindbody's TotalResults for the listing. */
  total_clients: z.number().int().nullable(),
  pages: z.number().int(),
  clients_seen: z.number().int(),
  clients_created: z.number().int(),
  clients_updated: z.number().int(),
  /** Rows found to be one Mindbody client with another and merged into it. */
  clients_merged: z.number().int(),
  visits_imported: z.number().int(),
  visit_errors: z.number().int(),
  /** Clients whose visits wait for a later run when this one ended (the daily call budget ran out). */
  visits_deferred: z.number().int(),
  /** Mindbody calls this run made (retries and token issues included). */
  calls: z.number().int(),
  /** Where a failed run stopped; the next run continues there. */
  next_offset: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type MindbodySyncRun = z.infer<typeof MindbodySyncRun>;

export const MindbodySyncStatus = z.object({
  /** 'sandbox' until the MINDBODY_* credentials are configured. */
  mode: z.enum(['live', 'sandbox']),
  /** Oldest of the sites' last successful imports; null while a site has none. */
  last_synced_at: z.string().nullable(),
  running: z.boolean(),
  /** Outcome of the most recent run ('failed' when any site's latest run failed). */
  last_outcome: z.enum(['running', 'succeeded', 'failed']).nullable(),
  last_error: z.string().nullable(),
  /** Mindbody calls made today (UTC day, all sites: the limit is per API key) and MINDBODY_DAILY_CALL_LIMIT. */
  calls_today: z.number().int(),
  daily_call_limit: z.number().int(),
  /** Clients whose visits wait for a later day's budget, all sites. */
  visits_deferred: z.number().int(),
  sites: z.array(
    z.object({
      site_id: z.number().int(),
      last_run: MindbodySyncRun.nullable(),
      last_synced_at: z.string().nullable(),
      /** Clients of this site whose visits wait for a later run. */
      visits_deferred: z.number().int(),
    }),
  ),
});
export type MindbodySyncStatus = z.infer<typeof MindbodySyncStatus>;

export const MindbodySyncStartBody = z
  .object({
    /** List every client instead of the changes since the last import. */
    full: z.boolean().default(false),
  })
  .default({ full: false });

export const MindbodySyncStartResponse = z.object({
  job_id: z.number().int(),
  /** false when an import was already queued or running (that one is returned). */
  started: z.boolean(),
});
export type MindbodySyncStartResponse = z.infer<typeof MindbodySyncStartResponse>;
