-- Client filters (docs/features.md#client-filters). Whether a filtered page first gathers the matching clients
-- or walks a sort index rests on the planner's estimate of how many match, so it needs statistics on each
-- filtered expression (written exactly as server/src/clients/clientFilter.ts writes them) and on how the
-- categorical ones combine: a studio's statuses, levels and Mindbody links are not independent (most paid
-- levels are Active members), and without these the planner multiplies their shares as if they were.
CREATE STATISTICS clients_filter_stats (mcv, dependencies) ON
  (coalesce(client_status, 'Pending')), (coalesce(vod_access_level, 0)), (coalesce(length(mb_client_id), 0))
  FROM clients;

-- Gathering is cheap only if the matches are found without reading the clients that do not match. Each of
-- status, level, Mindbody link and 'new' keeps 8-50 % of the clients, but together they can keep a few
-- hundred of a million; one index per column would make the planner intersect bitmaps of hundreds of
-- thousands of rows. These two answer any combination led by a status, or by a level, with one range scan.
CREATE INDEX clients_filter_status_idx ON clients (
  (coalesce(client_status, 'Pending')), (coalesce(vod_access_level, 0)), (coalesce(length(mb_client_id), 0)),
  (coalesce(first_login, '-infinity'::timestamptz)));
CREATE INDEX clients_filter_level_idx ON clients (
  (coalesce(vod_access_level, 0)), (coalesce(length(mb_client_id), 0)), (coalesce(first_login, '-infinity'::timestamptz)));
-- A running override (about 1 % of clients) with the same columns, so 'override running' and any of them
-- is one scan of a small index.
CREATE INDEX clients_filter_override_idx ON clients (
  admin_updated_expiration, (coalesce(client_status, 'Pending')), (coalesce(vod_access_level, 0)), (coalesce(length(mb_client_id), 0)))
  WHERE admin_updated_expiration IS NOT NULL;
ANALYZE clients;
