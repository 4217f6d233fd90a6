-- Dashboard figures (GET /api/stats/v1) read small aggregates kept up to date by triggers, so a call never
-- scans millions of views or purchases. Statement-level triggers with transition tables serve both the demo
-- seeder's single INSERT ... SELECT of millions of views and the app's one-row inserts (bench/plays-aggregate.ts
-- measures the cost). Days are UTC calendar days.

------------------------------------------------------------------------------------------------------------
-- Plays per UTC day: per video (with the video's category, so removing views needs no lookup of a video
-- that may be gone already) and per category (category_id 0: videos without one). The dashboard reads only
-- the small per-category table; the per-video one lets a video that changes category take its plays along.
CREATE TABLE video_plays_daily (
  video_id integer NOT NULL,
  day date NOT NULL,
  category_id integer NOT NULL,
  plays integer NOT NULL,
  PRIMARY KEY (video_id, day)
);

CREATE TABLE category_plays_daily (
  day date NOT NULL,
  category_id integer NOT NULL,
  plays integer NOT NULL,
  PRIMARY KEY (day, category_id)
);

-- Adds (sign 1) or removes (sign -1) the plays listed in the temp table plays_delta (video_id, day, plays).
CREATE FUNCTION plays_daily_apply(sign integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF sign > 0 THEN
    WITH categorised AS (
      SELECT x.video_id, x.day, coalesce(v.category_id, 0) AS category_id, x.plays
      FROM plays_delta x LEFT JOIN videos v ON v.id = x.video_id
    ), per_video AS (
      INSERT INTO video_plays_daily AS d (video_id, day, category_id, plays)
      SELECT video_id, day, category_id, plays FROM categorised
      ON CONFLICT (video_id, day) DO UPDATE SET plays = d.plays + EXCLUDED.plays
    )
    INSERT INTO category_plays_daily AS d (day, category_id, plays)
    SELECT day, category_id, sum(plays)::int FROM categorised GROUP BY 1, 2
    ON CONFLICT (day, category_id) DO UPDATE SET plays = d.plays + EXCLUDED.plays;
  ELSE
    WITH per_video AS (
      UPDATE video_plays_daily d SET plays = d.plays - x.plays
      FROM plays_delta x WHERE d.video_id = x.video_id AND d.day = x.day
      RETURNING d.day, d.category_id, x.plays
    )
    UPDATE category_plays_daily d SET plays = d.plays - r.plays
    FROM (SELECT day, category_id, sum(plays)::int AS plays FROM per_video GROUP BY 1, 2) r
    WHERE d.day = r.day AND d.category_id = r.category_id;
    DELETE FROM video_plays_daily d USING plays_delta x WHERE d.video_id = x.video_id AND d.day = x.day AND d.plays <= 0;
    DELETE FROM category_plays_daily d USING (SELECT DISTINCT day FROM plays_delta) x WHERE d.day = x.day AND d.plays <= 0;
  END IF;
  DELETE FROM plays_delta;
END $$;

-- Inserts are the common case (the seeder's millions at once, the app's one at a time): one statement, no temp table.
-- plpgsql plans this once per session and keeps the plan: the category comes from a per-row index lookup, because a
-- join planned for a bulk insert (a scan of all videos) would then be repeated for every single-row insert.
CREATE FUNCTION plays_daily_after_views_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH categorised AS (
    SELECT x.video_id, x.day, coalesce((SELECT v.category_id FROM videos v WHERE v.id = x.video_id), 0) AS category_id, x.plays
    FROM (SELECT video_id, (viewed_at AT TIME ZONE 'UTC')::date AS day, count(*)::int AS plays FROM new_views GROUP BY 1, 2) x
  ), per_video AS (
    INSERT INTO video_plays_daily AS d (video_id, day, category_id, plays)
    SELECT video_id, day, category_id, plays FROM categorised
    ON CONFLICT (video_id, day) DO UPDATE SET plays = d.plays + EXCLUDED.plays
  )
  INSERT INTO category_plays_daily AS d (day, category_id, plays)
  SELECT day, category_id, sum(plays)::int FROM categorised GROUP BY 1, 2
  ON CONFLICT (day, category_id) DO UPDATE SET plays = d.plays + EXCLUDED.plays;
  RETURN NULL;
END $$;

CREATE FUNCTION plays_daily_after_views_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  CREATE TEMP TABLE IF NOT EXISTS plays_delta (video_id integer, day date, plays integer) ON COMMIT DROP;
  INSERT INTO plays_delta SELECT video_id, (viewed_at AT TIME ZONE 'UTC')::date, count(*) FROM old_views GROUP BY 1, 2;
  PERFORM plays_daily_apply(-1);
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO plays_delta SELECT video_id, (viewed_at AT TIME ZONE 'UTC')::date, count(*) FROM new_views GROUP BY 1, 2;
    PERFORM plays_daily_apply(1);
  END IF;
  RETURN NULL;
END $$;

-- DELETE, not TRUNCATE: a TRUNCATE naming the aggregates too (a restore empties every table at once) would clash.
CREATE FUNCTION plays_daily_after_views_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM video_plays_daily;
  DELETE FROM category_plays_daily;
  RETURN NULL;
END $$;

CREATE TRIGGER video_views_plays_insert AFTER INSERT ON video_views
  REFERENCING NEW TABLE AS new_views FOR EACH STATEMENT EXECUTE FUNCTION plays_daily_after_views_insert();
CREATE TRIGGER video_views_plays_delete AFTER DELETE ON video_views
  REFERENCING OLD TABLE AS old_views FOR EACH STATEMENT EXECUTE FUNCTION plays_daily_after_views_change();
CREATE TRIGGER video_views_plays_update AFTER UPDATE ON video_views
  REFERENCING OLD TABLE AS old_views NEW TABLE AS new_views FOR EACH STATEMENT EXECUTE FUNCTION plays_daily_after_views_change();
CREATE TRIGGER video_views_plays_truncate AFTER TRUNCATE ON video_views
  FOR EACH STATEMENT EXECUTE FUNCTION plays_daily_after_views_truncate();

-- A video moved to another category takes its plays along.
CREATE FUNCTION plays_daily_after_video_category() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE category_plays_daily d SET plays = d.plays - v.plays
  FROM video_plays_daily v WHERE v.video_id = NEW.id AND d.day = v.day AND d.category_id = v.category_id;
  DELETE FROM category_plays_daily d USING video_plays_daily v
  WHERE v.video_id = NEW.id AND d.day = v.day AND d.category_id = v.category_id AND d.plays <= 0;
  UPDATE video_plays_daily SET category_id = coalesce(NEW.category_id, 0) WHERE video_id = NEW.id;
  INSERT INTO category_plays_daily AS d (day, category_id, plays)
  SELECT day, category_id, plays FROM video_plays_daily WHERE video_id = NEW.id
  ON CONFLICT (day, category_id) DO UPDATE SET plays = d.plays + EXCLUDED.plays;
  RETURN NULL;
END $$;

CREATE TRIGGER videos_plays_category AFTER UPDATE OF category_id ON videos
  FOR EACH ROW WHEN (OLD.category_id IS DISTINCT FROM NEW.category_id) EXECUTE FUNCTION plays_daily_after_video_category();

-- Views stored before this migration.
CREATE TEMP TABLE plays_delta (video_id integer, day date, plays integer) ON COMMIT DROP;
INSERT INTO plays_delta SELECT video_id, (viewed_at AT TIME ZONE 'UTC')::date, count(*) FROM video_views GROUP BY 1, 2;
SELECT plays_daily_apply(1);
DROP TABLE plays_delta;

------------------------------------------------------------------------------------------------------------
-- Paid clients over time. A client's effective level at t is their admin override's level while it is in force,
-- otherwise the best level their entitling purchases give them at t, otherwise free.
--
-- A purchase entitles its client to its level from purchased_at (no date: since ever) until expires_at (no date:
-- for good) when its level is paid and its status is one of these. 'cancelled' means auto-renew was turned off:
-- RevenueCat keeps access until expiry. 'expired' means the term ran out at expires_at (RevenueCat's EXPIRATION),
-- so the purchase did entitle until then: the subscriber history needs that. Any other status ('refunded',
-- 'revoked', unknown, none) never entitles.
CREATE FUNCTION purchase_status_entitles(status text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(btrim(coalesce(status, ''))) IN
    ('active', 'trial', 'trialing', 'in_trial', 'grace_period', 'in_grace_period', 'billing_issue', 'cancelled', 'canceled', 'expired')
$$;

-- A client row keeps only the expiry of its latest override (admin_updated_expiration), not its start. The console
-- offers overrides of at most 28 days (spec §9), so spans take an override to start 28 days before its expiry;
-- the stats call corrects the rare override that expires later than that from now.
CREATE FUNCTION admin_override_window() RETURNS interval LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT interval '28 days'
$$;

-- Each client's paid time merged into disjoint spans [starts_at, ends_at) (infinity: open-ended): entitling
-- purchases, plus a paid override's window, minus a free override's window. A client is paid at t when one of
-- their spans holds t, so counting the spans that hold t counts paid clients.
CREATE TABLE client_paid_spans (
  client_id bigint NOT NULL,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  PRIMARY KEY (client_id, starts_at)
);
CREATE INDEX client_paid_spans_starts_idx ON client_paid_spans (starts_at);
CREATE INDEX client_paid_spans_ends_idx ON client_paid_spans (ends_at);

-- Spans starting and ending per UTC day (±infinity are days too): the paid count at t is
-- (spans started by t) - (spans ended by t), summed from these few rows plus an index range for t's own day.
CREATE TABLE paid_span_days (
  day date PRIMARY KEY,
  starts integer NOT NULL DEFAULT 0,
  ends integer NOT NULL DEFAULT 0
);

-- Recomputes the spans of the clients listed in the temp table paid_span_clients (client_id).
CREATE FUNCTION client_paid_spans_refresh() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  CREATE TEMP TABLE IF NOT EXISTS paid_span_changes (day date, starts integer, ends integer) ON COMMIT DROP;
  WITH removed AS (
    DELETE FROM client_paid_spans s USING paid_span_clients c WHERE s.client_id = c.client_id
    RETURNING s.starts_at, s.ends_at
  )
  INSERT INTO paid_span_changes
  SELECT (starts_at AT TIME ZONE 'UTC')::date, -1, 0 FROM removed
  UNION ALL SELECT (ends_at AT TIME ZONE 'UTC')::date, 0, -1 FROM removed;

  WITH purchased AS (
    SELECT p.client_id, coalesce(p.purchased_at, '-infinity') AS starts_at, coalesce(p.expires_at, 'infinity') AS ends_at
    FROM purchases p
    JOIN paid_span_clients c ON c.client_id = p.client_id
    JOIN access_levels al ON al.id = p.access_level_id AND al.is_paid
    WHERE purchase_status_entitles(p.subscription_status)
      AND coalesce(p.expires_at, 'infinity') > coalesce(p.purchased_at, '-infinity')
  ), overridden AS (
    SELECT cl.id AS client_id, cl.admin_updated_expiration - admin_override_window() AS starts_at,
           cl.admin_updated_expiration AS ends_at, coalesce(al.is_paid, false) AS paid
    FROM clients cl
    JOIN paid_span_clients c ON c.client_id = cl.id
    LEFT JOIN access_levels al ON al.sort_order = cl.vod_access_level
    WHERE cl.admin_updated_expiration IS NOT NULL
  ), pieces AS (
    -- purchases a free override does not touch, and the parts of the others outside its window
    SELECT p.client_id, p.starts_at, p.ends_at FROM purchased p LEFT JOIN overridden o USING (client_id)
    WHERE o.client_id IS NULL OR o.paid OR p.ends_at <= o.starts_at OR p.starts_at >= o.ends_at
    UNION ALL
    SELECT p.client_id, p.starts_at, o.starts_at FROM purchased p JOIN overridden o USING (client_id)
    WHERE NOT o.paid AND p.starts_at < o.starts_at AND p.ends_at > o.starts_at
    UNION ALL
    SELECT p.client_id, o.ends_at, p.ends_at FROM purchased p JOIN overridden o USING (client_id)
    WHERE NOT o.paid AND p.ends_at > o.ends_at AND p.starts_at < o.ends_at
    UNION ALL
    SELECT client_id, starts_at, ends_at FROM overridden WHERE paid
  ), ordered AS (
    SELECT *, max(ends_at) OVER (PARTITION BY client_id ORDER BY starts_at, ends_at
                                 ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach
    FROM pieces
  ), grouped AS (
    SELECT *, count(*) FILTER (WHERE reach IS NULL OR starts_at > reach)
                OVER (PARTITION BY client_id ORDER BY starts_at, ends_at) AS span
    FROM ordered
  ), added AS (
    INSERT INTO client_paid_spans (client_id, starts_at, ends_at)
    SELECT client_id, min(starts_at), max(ends_at) FROM grouped GROUP BY client_id, span
    RETURNING starts_at, ends_at
  )
  INSERT INTO paid_span_changes
  SELECT (starts_at AT TIME ZONE 'UTC')::date, 1, 0 FROM added
  UNION ALL SELECT (ends_at AT TIME ZONE 'UTC')::date, 0, 1 FROM added;

  INSERT INTO paid_span_days AS d (day, starts, ends)
  SELECT day, sum(starts), sum(ends) FROM paid_span_changes GROUP BY day HAVING sum(starts) <> 0 OR sum(ends) <> 0
  ON CONFLICT (day) DO UPDATE SET starts = d.starts + EXCLUDED.starts, ends = d.ends + EXCLUDED.ends;
  DELETE FROM paid_span_changes;
  DELETE FROM paid_span_clients;
END $$;

CREATE FUNCTION client_paid_spans_after_purchases() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  CREATE TEMP TABLE IF NOT EXISTS paid_span_clients (client_id bigint PRIMARY KEY) ON COMMIT DROP;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO paid_span_clients SELECT DISTINCT client_id FROM new_purchases WHERE client_id IS NOT NULL ON CONFLICT DO NOTHING;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO paid_span_clients SELECT DISTINCT client_id FROM old_purchases WHERE client_id IS NOT NULL ON CONFLICT DO NOTHING;
  END IF;
  ANALYZE paid_span_clients;
  PERFORM client_paid_spans_refresh();
  RETURN NULL;
END $$;

-- Clients matter here only through their override: new ones that come with one, ones whose override or level
-- changed, and deleted ones (their spans go).
CREATE FUNCTION client_paid_spans_after_clients() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  CREATE TEMP TABLE IF NOT EXISTS paid_span_clients (client_id bigint PRIMARY KEY) ON COMMIT DROP;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO paid_span_clients SELECT id FROM new_clients WHERE admin_updated_expiration IS NOT NULL ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO paid_span_clients
    SELECT n.id FROM new_clients n JOIN old_clients o ON o.id = n.id
    WHERE n.admin_updated_expiration IS DISTINCT FROM o.admin_updated_expiration
       OR (n.admin_updated_expiration IS NOT NULL AND n.vod_access_level IS DISTINCT FROM o.vod_access_level)
    ON CONFLICT DO NOTHING;
  ELSE
    INSERT INTO paid_span_clients SELECT id FROM old_clients ON CONFLICT DO NOTHING;
  END IF;
  IF EXISTS (SELECT 1 FROM paid_span_clients) THEN
    ANALYZE paid_span_clients;
    PERFORM client_paid_spans_refresh();
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION client_paid_spans_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Truncating clients truncates purchases too (CASCADE or not at all), so this empties the spans either way.
  IF TG_TABLE_NAME = 'clients' THEN
    DELETE FROM client_paid_spans;
    DELETE FROM paid_span_days;
  ELSE
    CREATE TEMP TABLE IF NOT EXISTS paid_span_clients (client_id bigint PRIMARY KEY) ON COMMIT DROP;
    INSERT INTO paid_span_clients SELECT DISTINCT client_id FROM client_paid_spans ON CONFLICT DO NOTHING;
    PERFORM client_paid_spans_refresh();
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER purchases_paid_spans_insert AFTER INSERT ON purchases
  REFERENCING NEW TABLE AS new_purchases FOR EACH STATEMENT EXECUTE FUNCTION client_paid_spans_after_purchases();
CREATE TRIGGER purchases_paid_spans_delete AFTER DELETE ON purchases
  REFERENCING OLD TABLE AS old_purchases FOR EACH STATEMENT EXECUTE FUNCTION client_paid_spans_after_purchases();
CREATE TRIGGER purchases_paid_spans_update AFTER UPDATE ON purchases
  REFERENCING OLD TABLE AS old_purchases NEW TABLE AS new_purchases FOR EACH STATEMENT EXECUTE FUNCTION client_paid_spans_after_purchases();
CREATE TRIGGER purchases_paid_spans_truncate AFTER TRUNCATE ON purchases
  FOR EACH STATEMENT EXECUTE FUNCTION client_paid_spans_after_truncate();
CREATE TRIGGER clients_paid_spans_insert AFTER INSERT ON clients
  REFERENCING NEW TABLE AS new_clients FOR EACH STATEMENT EXECUTE FUNCTION client_paid_spans_after_clients();
CREATE TRIGGER clients_paid_spans_update AFTER UPDATE ON clients
  REFERENCING OLD TABLE AS old_clients NEW TABLE AS new_clients FOR EACH STATEMENT EXECUTE FUNCTION client_paid_spans_after_clients();
CREATE TRIGGER clients_paid_spans_delete AFTER DELETE ON clients
  REFERENCING OLD TABLE AS old_clients FOR EACH STATEMENT EXECUTE FUNCTION client_paid_spans_after_clients();
CREATE TRIGGER clients_paid_spans_truncate AFTER TRUNCATE ON clients
  FOR EACH STATEMENT EXECUTE FUNCTION client_paid_spans_after_truncate();

-- Purchases and overrides stored before this migration.
CREATE TEMP TABLE paid_span_clients (client_id bigint PRIMARY KEY) ON COMMIT DROP;
INSERT INTO paid_span_clients SELECT client_id FROM purchases WHERE client_id IS NOT NULL
UNION SELECT id FROM clients WHERE admin_updated_expiration IS NOT NULL;
SELECT client_paid_spans_refresh();
DROP TABLE paid_span_clients;

-- The stats call finds overrides expiring more than admin_override_window() from now through this index.
CREATE INDEX clients_admin_override_idx ON clients (admin_updated_expiration) WHERE admin_updated_expiration IS NOT NULL;

-- Backups leave these out (server/src/db/dump.ts): restoring views, purchases and clients rebuilds them.
COMMENT ON TABLE video_plays_daily IS 'derived: plays per video and UTC day, kept by triggers on video_views';
COMMENT ON TABLE category_plays_daily IS 'derived: plays per category and UTC day, kept by triggers on video_views';
COMMENT ON TABLE client_paid_spans IS 'derived: paid time per client, kept by triggers on purchases and clients';
COMMENT ON TABLE paid_span_days IS 'derived: client_paid_spans starting and ending per UTC day';

-- PGlite runs no autovacuum: give the planner the sizes of what the backfills wrote.
ANALYZE video_plays_daily, category_plays_daily, client_paid_spans, paid_span_days;
