-- The Revenue area's kept figures (docs/revenue.md). Each client's rows are recomputed from their stored
-- RevenueCat events whenever one is processed (server/src/revenue/keep.ts) and the daily totals move by the
-- difference, so a chart reads a few thousand day rows whatever the number of clients. Derived: a restore
-- leaves them out and the backfill job (POST /api/admin/v1/revenue/backfill) rebuilds them.

-- Every change of a client's figures: MRR movements, subscription and trial starts and ends, trials started
-- and converted (at the trial's start), gross revenue and refunds, cancellations (reason), MRR per currency.
CREATE TABLE revenue_changes (
  client_id bigint NOT NULL,
  at timestamptz NOT NULL,
  day date NOT NULL,
  kind text NOT NULL,
  reason text NOT NULL DEFAULT '',
  n integer NOT NULL,
  amount numeric NOT NULL
);
COMMENT ON TABLE revenue_changes IS 'derived: each client''s revenue changes, recomputed from revenuecat_events (migration 0075)';
CREATE INDEX revenue_changes_client_idx ON revenue_changes (client_id);
-- The clients behind a figure, and the running day's changes up to now.
CREATE INDEX revenue_changes_kind_at_idx ON revenue_changes (kind, at, client_id);

-- The sum of revenue_changes per UTC day, kind and reason: what every chart reads.
CREATE TABLE revenue_days (
  day date NOT NULL,
  kind text NOT NULL,
  reason text NOT NULL DEFAULT '',
  n bigint NOT NULL,
  amount numeric NOT NULL,
  PRIMARY KEY (day, kind, reason)
);
COMMENT ON TABLE revenue_days IS 'derived: revenue_changes summed per day, kind and reason (migration 0075)';

-- Each client's periods as counted (paid, trial, other; refunded ones left out): "paying at" a moment.
CREATE TABLE revenue_periods (
  client_id bigint NOT NULL,
  subscription text NOT NULL,
  transaction text NOT NULL,
  kind text NOT NULL,
  product text,
  start_at timestamptz NOT NULL,
  end_at timestamptz,
  mrr_usd numeric NOT NULL
);
COMMENT ON TABLE revenue_periods IS 'derived: each client''s subscription periods as counted, from revenuecat_events (migration 0075)';
CREATE INDEX revenue_periods_client_idx ON revenue_periods (client_id, kind, start_at);

-- A client's paying cohort (month of the first paid period).
CREATE TABLE revenue_clients (
  client_id bigint PRIMARY KEY,
  cohort date
);
COMMENT ON TABLE revenue_clients IS 'derived: each paying client''s cohort month (migration 0075)';

-- The months each client took a signed-in class or streamed, kept by the triggers below.
CREATE TABLE client_active_months (
  client_id bigint NOT NULL,
  month date NOT NULL,
  PRIMARY KEY (client_id, month)
);
COMMENT ON TABLE client_active_months IS 'derived: months with a signed-in class or a stream per client, kept by triggers (migration 0075)';

-- The cohort cells each client counts in: paying months, and active months from their cohort on.
CREATE TABLE revenue_client_months (
  client_id bigint NOT NULL,
  kind text NOT NULL,
  cohort date NOT NULL,
  month date NOT NULL,
  PRIMARY KEY (client_id, kind, month)
);
COMMENT ON TABLE revenue_client_months IS 'derived: the cohort cells each client counts in (migration 0075)';
CREATE INDEX revenue_client_months_cell_idx ON revenue_client_months (kind, cohort, month, client_id);

CREATE TABLE revenue_cohort_cells (
  kind text NOT NULL,
  cohort date NOT NULL,
  month date NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (kind, cohort, month)
);
COMMENT ON TABLE revenue_cohort_cells IS 'derived: revenue_client_months counted per cell (migration 0075)';

-- The backfill's progress (one row): which client it reached, so a restart resumes there.
CREATE TABLE revenue_backfill (
  id integer PRIMARY KEY CHECK (id = 1),
  job_id bigint,
  state text NOT NULL,
  last_client_id bigint NOT NULL DEFAULT 0,
  clients_done integer NOT NULL DEFAULT 0,
  clients_total integer NOT NULL DEFAULT 0,
  started_at timestamptz,
  finished_at timestamptz
);

-- New active months count in the cohort of a client who already has one.
CREATE FUNCTION revenue_active_months_add(rows_in jsonb) RETURNS void LANGUAGE sql AS $$
  WITH added AS (
    INSERT INTO client_active_months (client_id, month)
    SELECT DISTINCT (r->>'client_id')::bigint, (r->>'month')::date FROM jsonb_array_elements(rows_in) r
    ON CONFLICT DO NOTHING RETURNING client_id, month
  ), cells AS (
    INSERT INTO revenue_client_months (client_id, kind, cohort, month)
    SELECT a.client_id, 'active', rc.cohort, a.month FROM added a JOIN revenue_clients rc ON rc.client_id = a.client_id
    WHERE rc.cohort IS NOT NULL AND a.month >= rc.cohort
    ON CONFLICT DO NOTHING RETURNING cohort, month
  )
  INSERT INTO revenue_cohort_cells AS c (kind, cohort, month, n)
  SELECT 'active', cohort, month, count(*) FROM cells GROUP BY cohort, month ORDER BY cohort, month
  ON CONFLICT (kind, cohort, month) DO UPDATE SET n = c.n + EXCLUDED.n;
$$;

CREATE FUNCTION revenue_visits_active() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM revenue_active_months_add(coalesce((
    SELECT jsonb_agg(DISTINCT jsonb_build_object('client_id', client_id, 'month', date_trunc('month', start_at AT TIME ZONE 'UTC')::date))
    FROM revenue_new_visits WHERE signed_in AND start_at IS NOT NULL), '[]'::jsonb));
  RETURN NULL;
END $$;

CREATE FUNCTION revenue_views_active() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM revenue_active_months_add(coalesce((
    SELECT jsonb_agg(DISTINCT jsonb_build_object('client_id', client_id, 'month', date_trunc('month', viewed_at AT TIME ZONE 'UTC')::date))
    FROM revenue_new_views), '[]'::jsonb));
  RETURN NULL;
END $$;

CREATE TRIGGER mindbody_visits_revenue_active_insert AFTER INSERT ON mindbody_visits
  REFERENCING NEW TABLE AS revenue_new_visits FOR EACH STATEMENT EXECUTE FUNCTION revenue_visits_active();
CREATE TRIGGER mindbody_visits_revenue_active_update AFTER UPDATE ON mindbody_visits
  REFERENCING NEW TABLE AS revenue_new_visits FOR EACH STATEMENT EXECUTE FUNCTION revenue_visits_active();
CREATE TRIGGER video_views_revenue_active_insert AFTER INSERT ON video_views
  REFERENCING NEW TABLE AS revenue_new_views FOR EACH STATEMENT EXECUTE FUNCTION revenue_views_active();

INSERT INTO client_active_months (client_id, month)
SELECT client_id, date_trunc('month', start_at AT TIME ZONE 'UTC')::date FROM mindbody_visits WHERE signed_in AND start_at IS NOT NULL
UNION
SELECT client_id, date_trunc('month', viewed_at AT TIME ZONE 'UTC')::date FROM video_views;
