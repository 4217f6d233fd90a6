-- A client's data rights: erasure (the clients row stays, emptied, so figures keep counting it), the
-- tombstones that keep an import or a RevenueCat event from bringing erased data back, the outside
-- services still to be told, access and erasure requests, who looked at whose data, and retention.

ALTER TABLE clients ADD COLUMN erased_at timestamptz;

-- One-way hashes (SHA-256 of a normalized identifier, server/src/clientData/tombstones.ts) of what
-- identified an erased client: e-mail, Mindbody ids, RevenueCat ids. Never the identifiers themselves.
CREATE TABLE erasure_tombstones (
  hash text PRIMARY KEY,
  kind text NOT NULL,
  erased_client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL
);
CREATE INDEX erasure_tombstones_client_idx ON erasure_tombstones (erased_client_id);

-- One row per erasure: who, why, when. The outside services still to be told (Algolia, RevenueCat)
-- live in erasure_outside until they answered; the client.erase job works them off, resumably.
CREATE TABLE client_erasures (
  client_id bigint PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
  reason text NOT NULL,
  staff_user_id integer,
  staff_email text,
  erased_at timestamptz NOT NULL
);

CREATE TABLE erasure_outside (
  id bigserial PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  service text NOT NULL CHECK (service IN ('algolia', 'revenuecat')),
  -- the RevenueCat app_user_id to delete (or the Algolia objectID); removed with the row once done
  target text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  done_at timestamptz
);
CREATE INDEX erasure_outside_client_idx ON erasure_outside (client_id);

-- Access (art. 15/20) and erasure (art. 17) requests, answered within one month (art. 12(3)).
CREATE TABLE data_requests (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('access', 'erasure')),
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  received_at timestamptz NOT NULL,
  due_at timestamptz NOT NULL,
  note text,
  logged_by text,
  handled_at timestamptz,
  handled_by text
);
CREATE INDEX data_requests_open_idx ON data_requests (due_at) WHERE handled_at IS NULL;
CREATE INDEX data_requests_client_idx ON data_requests (client_id, kind);

-- Who looked at whose data: once per staff member, client and hour (the key), not per request.
CREATE TABLE client_looks (
  staff_user_id integer NOT NULL,
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  hour timestamptz NOT NULL,
  staff_email text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('page', 'export', 'list_export')),
  first_at timestamptz NOT NULL,
  PRIMARY KEY (staff_user_id, client_id, hour)
);
CREATE INDEX client_looks_client_idx ON client_looks (client_id, hour DESC);

-- Retention deletes per-view detail; the dashboard's plays per day must not drop with it, nor when an
-- erasure deletes a client's views. Such deletions set studio.keep_counts for their transaction.
CREATE OR REPLACE FUNCTION plays_daily_after_views_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('studio.keep_counts', true) = 'on' THEN
    RETURN NULL;
  END IF;
  CREATE TEMP TABLE IF NOT EXISTS plays_delta (video_id integer, day date, plays integer) ON COMMIT DROP;
  INSERT INTO plays_delta SELECT video_id, (viewed_at AT TIME ZONE 'UTC')::date, count(*) FROM old_views GROUP BY 1, 2;
  PERFORM plays_daily_apply(-1);
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO plays_delta SELECT video_id, (viewed_at AT TIME ZONE 'UTC')::date, count(*) FROM new_views GROUP BY 1, 2;
    PERFORM plays_daily_apply(1);
  END IF;
  RETURN NULL;
END $$;

-- Retention's batches read the oldest rows first.
CREATE INDEX IF NOT EXISTS debug_records_created_at_idx ON debug_records (created_at);
