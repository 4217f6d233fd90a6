-- A purchase entitles by what RevenueCat says is active: from its purchase until its expiry (or its grace
-- period's end), whatever event came last, and a purchase without an expiry until refunded. RevenueCat stops
-- retrying a webhook after 5 failures, so the EXPIRATION event may never come. Each purchase row carries its
-- entitlement, computed by the trigger below for every writer (webhook jobs, the demo seeder, a restore); the
-- client levels and the dashboard's paid spans both read these columns, so they cannot disagree. The same rule
-- in TypeScript (server/src/integrations/revenuecat/entitlement.ts) is tested against this trigger.
ALTER TABLE purchases
  -- grace_period_expiration_at_ms of the transaction's last BILLING_ISSUE
  ADD COLUMN grace_period_expires_at timestamptz,
  -- set by the webhook job when REVENUECAT_ACCEPT_SANDBOX is on (a staging studio)
  ADD COLUMN sandbox_accepted boolean NOT NULL DEFAULT false,
  -- false: never entitles (a SANDBOX purchase not accepted, a status that gives nothing)
  ADD COLUMN grants_access boolean NOT NULL DEFAULT true,
  -- when the entitlement ends; null: it does not
  ADD COLUMN access_ends_at timestamptz;

CREATE FUNCTION purchases_entitlement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  status text := lower(btrim(coalesce(NEW.subscription_status, '')));
  -- the expiry, or the grace period's end when later; null: no expiry
  period_end timestamptz := CASE WHEN NEW.expires_at IS NULL THEN NULL
                                 ELSE greatest(NEW.expires_at, coalesce(NEW.grace_period_expires_at, NEW.expires_at)) END;
BEGIN
  NEW.grants_access := status IN ('active', 'trial', 'trialing', 'in_trial', 'grace_period', 'in_grace_period', 'billing_issue',
                                  'cancelled', 'canceled', 'paused', 'renewed', 'expired', 'refunded')
    AND (upper(btrim(coalesce(NEW.rc_environment, ''))) <> 'SANDBOX' OR NEW.sandbox_accepted);
  -- After an EXPIRATION or a refund, access ends no later than that event (rc_event_at). Rows without the
  -- event's time (from before the webhook): an expired purchase ran to its expiry, a refunded one gave nothing.
  NEW.access_ends_at := CASE
    WHEN status NOT IN ('expired', 'refunded') THEN period_end
    ELSE least(coalesce(period_end, 'infinity'),
               coalesce(NEW.rc_event_at, CASE WHEN status = 'refunded' THEN coalesce(NEW.purchased_at, 'epoch')
                                              ELSE coalesce(period_end, NEW.purchased_at, 'epoch') END))
  END;
  RETURN NEW;
END $$;
CREATE TRIGGER purchases_entitlement BEFORE INSERT OR UPDATE ON purchases FOR EACH ROW EXECUTE FUNCTION purchases_entitlement();

-- When the client's purchase-derived level next changes by time alone (an entitlement ending, a renewal's
-- period starting); the expiry job recomputes the clients whose moment has come. '-infinity': at once.
ALTER TABLE clients ADD COLUMN purchase_access_changes_at timestamptz;
CREATE INDEX clients_purchase_access_changes_idx ON clients (purchase_access_changes_at) WHERE purchase_access_changes_at IS NOT NULL;

-- The paid spans of migrations 0008/0023 now take a purchase's time from these columns.
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
    SELECT p.client_id, coalesce(p.purchased_at, '-infinity') AS starts_at, coalesce(p.access_ends_at, 'infinity') AS ends_at
    FROM purchases p
    JOIN paid_span_clients c ON c.client_id = p.client_id
    JOIN access_levels al ON al.id = p.access_level_id AND al.is_paid
    WHERE p.grants_access
      AND coalesce(p.access_ends_at, 'infinity') > coalesce(p.purchased_at, '-infinity')
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

-- Grace periods of stored BILLING_ISSUE events, by transaction (the latest event of each).
UPDATE purchases p SET grace_period_expires_at = g.ends_at
FROM (
  SELECT DISTINCT ON (body->'event'->>'transaction_id') body->'event'->>'transaction_id' AS transaction_id,
         to_timestamp((body->'event'->>'grace_period_expiration_at_ms')::numeric / 1000) AS ends_at
  FROM revenuecat_events
  WHERE type = 'BILLING_ISSUE' AND body->'event'->>'grace_period_expiration_at_ms' ~ '^[0-9]{1,15}$'
  ORDER BY body->'event'->>'transaction_id', event_at DESC NULLS LAST, id DESC
) g
WHERE p.rc_transaction_id = g.transaction_id;

-- Every stored purchase through the trigger (sandbox ones are refused: the default); this refreshes the spans.
UPDATE purchases SET sandbox_accepted = false;

-- Every client with purchases is looked at once by the expiry job, which puts levels that outlived their
-- purchase (the dashboard counted 2 subscribers, the client rows 4 paid) back on what the purchases give.
UPDATE clients SET purchase_access_changes_at = '-infinity'
WHERE id IN (SELECT client_id FROM purchases WHERE client_id IS NOT NULL) OR purchase_access_level IS NOT NULL;

-- A purchase written or changed by anything (the webhook job, the demo seeder, a restore, a hand edit) puts its
-- client before the expiry job at once; the webhook job recomputes its own client right after anyway.
CREATE FUNCTION purchases_flag_clients() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE clients SET purchase_access_changes_at = '-infinity'
    WHERE id IN (SELECT client_id FROM new_purchases) AND purchase_access_changes_at IS DISTINCT FROM '-infinity';
  ELSE
    UPDATE clients SET purchase_access_changes_at = '-infinity'
    WHERE id IN (
      SELECT unnest(ARRAY[n.client_id, o.client_id]) FROM new_purchases n JOIN old_purchases o ON o.id = n.id
      WHERE (n.client_id, n.grants_access, n.access_ends_at, n.purchased_at, n.access_level_id)
            IS DISTINCT FROM (o.client_id, o.grants_access, o.access_ends_at, o.purchased_at, o.access_level_id)
    ) AND purchase_access_changes_at IS DISTINCT FROM '-infinity';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER purchases_flag_clients_insert AFTER INSERT ON purchases
  REFERENCING NEW TABLE AS new_purchases FOR EACH STATEMENT EXECUTE FUNCTION purchases_flag_clients();
CREATE TRIGGER purchases_flag_clients_update AFTER UPDATE ON purchases
  REFERENCING OLD TABLE AS old_purchases NEW TABLE AS new_purchases FOR EACH STATEMENT EXECUTE FUNCTION purchases_flag_clients();
