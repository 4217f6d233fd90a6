-- Admin access-level overrides, one row per grant. The clients row keeps only the override in force (and the
-- expiry job clears it when the override ends), so without this table a finished override left no trace and the
-- subscriber history had to guess each override's start. The paid spans of migration 0008 now come from here.

CREATE TABLE access_override_history (
  id bigserial PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  -- access_levels.sort_order, as clients.vod_access_level
  level integer NOT NULL,
  -- the client's level just before this grant (a previous override's level when it replaced one)
  replaced_level integer,
  starts_at timestamptz NOT NULL,
  -- the planned end: clients.admin_updated_expiration as granted
  ends_at timestamptz NOT NULL,
  -- when it was actually ended: by the expiry job (at or a little after ends_at), or by a newer grant
  -- (before ends_at). Null while no one has ended it yet.
  ended_at timestamptz,
  -- the staff member's e-mail; null for overrides from before this table
  granted_by text
);
CREATE INDEX access_override_history_client_idx ON access_override_history (client_id, starts_at);

------------------------------------------------------------------------------------------------------------
-- Paid spans (0008) from purchases and override history. An override is in force from starts_at until the
-- first of ends_at (the job may notice the end a minute late, access ends on time), ended_at (a newer grant
-- replaced it) and the start of the client's next override (two grants racing each other both stay open).
-- While one is in force it decides (paid level: paid, free level: not paid, whatever was bought); otherwise
-- the client is paid while an entitling purchase runs. Each client's time is swept in order over the edges of
-- all these intervals, which handles any number of overrides and purchases in one set-based statement.
CREATE OR REPLACE FUNCTION client_paid_spans_refresh() RETURNS void LANGUAGE plpgsql AS $$
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
  ), granted AS (
    SELECT h.client_id, h.starts_at,
           least(h.ends_at, coalesce(h.ended_at, 'infinity'),
                 coalesce(lead(h.starts_at) OVER (PARTITION BY h.client_id ORDER BY h.starts_at, h.id), 'infinity')) AS ends_at,
           coalesce(al.is_paid, false) AS paid
    FROM access_override_history h
    JOIN paid_span_clients c ON c.client_id = h.client_id
    LEFT JOIN access_levels al ON al.sort_order = h.level
  ), edges AS (
    -- +1 where an interval starts, -1 where it ends: purchases running, overrides in force, paid ones among them
    SELECT client_id, starts_at AS at, 1 AS bought, 0 AS held, 0 AS held_paid FROM purchased
    UNION ALL SELECT client_id, ends_at, -1, 0, 0 FROM purchased
    UNION ALL SELECT client_id, starts_at, 0, 1, paid::int FROM granted WHERE ends_at > starts_at
    UNION ALL SELECT client_id, ends_at, 0, -1, -paid::int FROM granted WHERE ends_at > starts_at
  ), states AS (
    -- from each edge until the client's next one
    SELECT client_id, at,
           sum(sum(held_paid)) OVER w > 0 OR (sum(sum(held)) OVER w = 0 AND sum(sum(bought)) OVER w > 0) AS paid
    FROM edges GROUP BY client_id, at
    WINDOW w AS (PARTITION BY client_id ORDER BY at)
  ), flips AS (
    SELECT client_id, at, paid FROM (
      SELECT *, lag(paid, 1, false) OVER (PARTITION BY client_id ORDER BY at) AS was_paid FROM states
    ) s WHERE paid <> was_paid
  ), spans AS (
    -- every interval ends, so each paid flip is followed by an unpaid one
    SELECT client_id, at AS starts_at, lead(at) OVER (PARTITION BY client_id ORDER BY at) AS ends_at, paid FROM flips
  ), added AS (
    INSERT INTO client_paid_spans (client_id, starts_at, ends_at)
    SELECT client_id, starts_at, ends_at FROM spans WHERE paid
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

CREATE FUNCTION client_paid_spans_after_overrides() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  CREATE TEMP TABLE IF NOT EXISTS paid_span_clients (client_id bigint PRIMARY KEY) ON COMMIT DROP;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO paid_span_clients SELECT DISTINCT client_id FROM new_overrides ON CONFLICT DO NOTHING;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO paid_span_clients SELECT DISTINCT client_id FROM old_overrides ON CONFLICT DO NOTHING;
  END IF;
  -- Statement triggers fire for statements that touched no row too: a grant's "close the previous one".
  IF EXISTS (SELECT 1 FROM paid_span_clients) THEN
    ANALYZE paid_span_clients;
    PERFORM client_paid_spans_refresh();
  END IF;
  RETURN NULL;
END $$;

-- The clients row no longer feeds the spans: only a deleted client's spans must go (its history and purchases
-- follow through their foreign keys too).
CREATE OR REPLACE FUNCTION client_paid_spans_after_clients() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  CREATE TEMP TABLE IF NOT EXISTS paid_span_clients (client_id bigint PRIMARY KEY) ON COMMIT DROP;
  INSERT INTO paid_span_clients SELECT id FROM old_clients ON CONFLICT DO NOTHING;
  IF EXISTS (SELECT 1 FROM paid_span_clients) THEN
    ANALYZE paid_span_clients;
    PERFORM client_paid_spans_refresh();
  END IF;
  RETURN NULL;
END $$;
DROP TRIGGER clients_paid_spans_insert ON clients;
DROP TRIGGER clients_paid_spans_update ON clients;

CREATE OR REPLACE FUNCTION client_paid_spans_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Truncating clients truncates purchases and overrides too (CASCADE or not at all): the spans go.
  IF TG_TABLE_NAME = 'clients' THEN
    DELETE FROM client_paid_spans;
    DELETE FROM paid_span_days;
  ELSE
    CREATE TEMP TABLE IF NOT EXISTS paid_span_clients (client_id bigint PRIMARY KEY) ON COMMIT DROP;
    INSERT INTO paid_span_clients SELECT DISTINCT client_id FROM client_paid_spans ON CONFLICT DO NOTHING;
    -- Without its overrides a client may gain paid time: one whose free override covered every purchase.
    IF TG_TABLE_NAME = 'access_override_history' THEN
      INSERT INTO paid_span_clients SELECT DISTINCT client_id FROM purchases WHERE client_id IS NOT NULL ON CONFLICT DO NOTHING;
    END IF;
    ANALYZE paid_span_clients;
    PERFORM client_paid_spans_refresh();
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER access_override_history_paid_spans_insert AFTER INSERT ON access_override_history
  REFERENCING NEW TABLE AS new_overrides FOR EACH STATEMENT EXECUTE FUNCTION client_paid_spans_after_overrides();
CREATE TRIGGER access_override_history_paid_spans_delete AFTER DELETE ON access_override_history
  REFERENCING OLD TABLE AS old_overrides FOR EACH STATEMENT EXECUTE FUNCTION client_paid_spans_after_overrides();
CREATE TRIGGER access_override_history_paid_spans_update AFTER UPDATE ON access_override_history
  REFERENCING OLD TABLE AS old_overrides NEW TABLE AS new_overrides FOR EACH STATEMENT EXECUTE FUNCTION client_paid_spans_after_overrides();
CREATE TRIGGER access_override_history_paid_spans_truncate AFTER TRUNCATE ON access_override_history
  FOR EACH STATEMENT EXECUTE FUNCTION client_paid_spans_after_truncate();

-- Overrides granted before this table: the clients row holds the latest one's level and expiry but not its
-- start. As 0008 did, take it to have started 28 days (the console's longest) before its expiry, and no later
-- than now, so that one in force now is counted now. The insert trigger above recomputes these clients' spans.
INSERT INTO access_override_history (client_id, level, replaced_level, starts_at, ends_at)
SELECT c.id, coalesce(c.vod_access_level, (SELECT min(sort_order) FROM access_levels)), c.admin_replaced_access_level,
       least(c.admin_updated_expiration - interval '28 days', now()), c.admin_updated_expiration
FROM clients c WHERE c.admin_updated_expiration IS NOT NULL;

-- Nothing guesses an override's start any more. (clients_admin_override_idx stays: the expiry job sweeps by it.)
DROP FUNCTION admin_override_window();

ANALYZE access_override_history, client_paid_spans, paid_span_days;
