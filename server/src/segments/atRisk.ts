import { atRiskFilter, type AtRiskClient, type AtRiskPage } from '@contract/segments';
import type { Database } from '../db/client';
import { clientFilterWhere } from '../clients/clientFilter';
import { CLIENT_COLUMNS } from '../clients/listQuery';
import { isoOrNull, toClient, type ClientRow } from '../clients/rows';

/**
 * The at-risk list (docs/features.md#at-risk): clients with a signed-in class or a stream in the
 * `activeDays` before the last `quietDays`, and none since; the client filter says it
 * (`atRiskFilter`), so a broadcast or bulk action reaches exactly these clients. Most valuable
 * first: a paid level, a higher level, a running Mindbody contract; 'last contacted' is the last push.
 */
export async function atRiskPage(
  database: Database,
  window: { activeDays: number; quietDays: number },
  paging: { page: number; perPage: number },
  now: Date,
): Promise<AtRiskPage> {
  const filter = atRiskFilter(window.activeDays, window.quietDays);
  const where = clientFilterWhere([filter], now);
  const nowParam = `${where.param(now.toISOString())}::timestamptz`;
  const limit = where.param(paging.perPage);
  const offset = where.param((paging.page - 1) * paging.perPage);
  // The matches are ranked once (their contract is one index probe each); only the page's rows read their last activity and push.
  const rows = await database.query<
    ClientRow & { paid: boolean; active_contract: boolean; last_active_at: unknown; last_contacted_at: unknown; total: number }
  >(
    `WITH ranked AS MATERIALIZED (
       SELECT c.id, coalesce(al.is_paid, false) AS paid, coalesce(c.vod_access_level, 0) AS level,
              EXISTS (SELECT 1 FROM contracts ct WHERE ct.client_id = c.id AND coalesce(ct.start_date, '-infinity') <= ${nowParam}
                        AND coalesce(ct.end_date, 'infinity') > ${nowParam} AND coalesce(ct.termination_date, 'infinity') > ${nowParam}) AS active_contract
       FROM clients c LEFT JOIN access_levels al ON al.sort_order = c.vod_access_level ${where}
     ), page AS (
       SELECT r.*, count(*) OVER () AS total FROM ranked r ORDER BY paid DESC, level DESC, active_contract DESC, id LIMIT ${limit} OFFSET ${offset}
     )
     SELECT ${CLIENT_COLUMNS}, page.paid, page.active_contract, page.total,
            (SELECT greatest(a.last_class_at, a.last_stream_at) FROM client_activity a WHERE a.client_id = c.id) AS last_active_at,
            (SELECT max(p.created_at) FROM pushes p WHERE p.client_id = c.id) AS last_contacted_at
     FROM page JOIN clients c ON c.id = page.id
     ORDER BY page.paid DESC, page.level DESC, page.active_contract DESC, page.id`,
    where.params,
  );
  const total = rows[0] ? Number(rows[0].total) : paging.page === 1 ? 0 : await countAtRisk(database, filter, now);
  const clients: AtRiskClient[] = rows.map((row) => ({
    ...toClient(row),
    paid: Boolean(row.paid),
    active_contract: Boolean(row.active_contract),
    last_active_at: isoOrNull(row.last_active_at),
    last_contacted_at: isoOrNull(row.last_contacted_at),
  }));
  return { clients, total, page: paging.page, perPage: paging.perPage, active_days: window.activeDays, quiet_days: window.quietDays, filter };
}

async function countAtRisk(database: Database, filter: ReturnType<typeof atRiskFilter>, now: Date): Promise<number> {
  const where = clientFilterWhere([filter], now);
  const [row] = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM clients c ${where}`, where.params);
  return Number(row!.n);
}
