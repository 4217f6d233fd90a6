-- The at-risk list's order kept beside each client's activity (docs/features.md#at-risk). Ranking the
-- matches at read time (a paid level, the level, a running contract) read every client in the window:
-- 14 s at 1,000,000 clients. Each client_activity row now carries its rank; an index on (rank, last
-- activity) hands out a page by walking each rank's window, a few index entries per row shown.
--
-- A rank is "how valuable, as of a moment": the level is the client's, the contract part depends on
-- the time. Writes only clear a rank (triggers below, cheap and clock-free); client_activity_rank(at)
-- ranks what is cleared, and re-ranks the clients whose contract started, ended or was terminated
-- between the last ranking and `at`, so a rank is always as of the last call. The server calls it
-- before it reads the list (with its own clock), the seed after it fills the tables.

ALTER TABLE client_activity ADD COLUMN value_rank bigint;
COMMENT ON COLUMN client_activity.value_rank IS
  'derived: paid level (2^34) + (level + 2^31) * 2 + running contract (1), as of client_activity_ranking.ranked_at; NULL until ranked (migration 0059)';

CREATE INDEX client_activity_rank_idx ON client_activity (value_rank, greatest(last_class_at, last_stream_at), client_id);
CREATE INDEX client_activity_last_active_idx ON client_activity (greatest(last_class_at, last_stream_at));
CREATE INDEX client_activity_unranked_idx ON client_activity (client_id) WHERE value_rank IS NULL;
-- Which clients a moving clock re-ranks: the contracts with a date between two rankings.
CREATE INDEX contracts_start_date_idx ON contracts (start_date);
CREATE INDEX contracts_end_date_idx ON contracts (end_date);
CREATE INDEX contracts_termination_date_idx ON contracts (termination_date);

CREATE TABLE client_activity_ranking (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  ranked_at timestamptz NOT NULL
);
COMMENT ON TABLE client_activity_ranking IS 'derived: the moment client_activity.value_rank is as of (one row; migration 0059)';

-- A client's rank at `at`; 0 for a client that no longer exists (such a row is never listed).
CREATE FUNCTION client_value_rank(client bigint, at timestamptz) RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT coalesce((
    SELECT CASE WHEN coalesce(al.is_paid, false) THEN 17179869184 ELSE 0 END
         + (coalesce(c.vod_access_level, 0)::bigint + 2147483648) * 2
         + CASE WHEN EXISTS (SELECT 1 FROM contracts ct WHERE ct.client_id = c.id
                               AND coalesce(ct.start_date, '-infinity') <= at
                               AND coalesce(ct.end_date, 'infinity') > at
                               AND coalesce(ct.termination_date, 'infinity') > at) THEN 1 ELSE 0 END
    FROM clients c LEFT JOIN access_levels al ON al.sort_order = c.vod_access_level
    WHERE c.id = client), 0)
$$;

-- Ranks the cleared rows and those a contract date between the last ranking and `at` changed; one
-- caller at a time (the row lock), and a no-op when nothing changed. Returns how many rows it ranked.
CREATE FUNCTION client_activity_rank(at timestamptz) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  previous timestamptz;
  low timestamptz;
  high timestamptz;
  ranked integer;
BEGIN
  INSERT INTO client_activity_ranking (id, ranked_at) VALUES (true, at) ON CONFLICT (id) DO NOTHING;
  SELECT ranked_at INTO previous FROM client_activity_ranking WHERE id FOR UPDATE;
  -- A clock may also go back (tests, a restored database): the dates between the two moments either way.
  low := least(previous, at);
  high := greatest(previous, at);
  UPDATE client_activity a SET value_rank = client_value_rank(a.client_id, at)
  WHERE a.value_rank IS NULL
     OR (low < high AND a.client_id IN (
          SELECT client_id FROM contracts WHERE start_date > low AND start_date <= high
          UNION SELECT client_id FROM contracts WHERE end_date > low AND end_date <= high
          UNION SELECT client_id FROM contracts WHERE termination_date > low AND termination_date <= high));
  GET DIAGNOSTICS ranked = ROW_COUNT;
  UPDATE client_activity_ranking SET ranked_at = at WHERE id;
  RETURN ranked;
END $$;

-- What clears a rank: a new activity row (NULL by default), a contract written, a level changed.
CREATE FUNCTION client_activity_unrank_contracts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE client_activity SET value_rank = NULL WHERE value_rank IS NOT NULL AND client_id IN (SELECT client_id FROM new_contracts);
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE client_activity SET value_rank = NULL
    WHERE value_rank IS NOT NULL AND client_id IN (SELECT client_id FROM new_contracts UNION SELECT client_id FROM old_contracts);
  ELSE
    UPDATE client_activity SET value_rank = NULL WHERE value_rank IS NOT NULL AND client_id IN (SELECT client_id FROM old_contracts);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER contracts_activity_rank_insert AFTER INSERT ON contracts
  REFERENCING NEW TABLE AS new_contracts FOR EACH STATEMENT EXECUTE FUNCTION client_activity_unrank_contracts();
CREATE TRIGGER contracts_activity_rank_update AFTER UPDATE ON contracts
  REFERENCING OLD TABLE AS old_contracts NEW TABLE AS new_contracts FOR EACH STATEMENT EXECUTE FUNCTION client_activity_unrank_contracts();
CREATE TRIGGER contracts_activity_rank_delete AFTER DELETE ON contracts
  REFERENCING OLD TABLE AS old_contracts FOR EACH STATEMENT EXECUTE FUNCTION client_activity_unrank_contracts();
CREATE FUNCTION client_activity_unrank_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE client_activity SET value_rank = NULL WHERE value_rank IS NOT NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER contracts_activity_rank_truncate AFTER TRUNCATE ON contracts FOR EACH STATEMENT EXECUTE FUNCTION client_activity_unrank_all();
-- An access level made paid or free re-ranks everyone (rare: the levels are set up once).
CREATE TRIGGER access_levels_activity_rank AFTER INSERT OR UPDATE OR DELETE ON access_levels FOR EACH STATEMENT EXECUTE FUNCTION client_activity_unrank_all();

-- A changed level, row by row and only when it changed: no transition tables on every clients UPDATE.
CREATE FUNCTION client_activity_unrank_level() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE client_activity SET value_rank = NULL WHERE client_id = NEW.id AND value_rank IS NOT NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER clients_activity_rank_level AFTER UPDATE OF vod_access_level ON clients
  FOR EACH ROW WHEN (OLD.vod_access_level IS DISTINCT FROM NEW.vod_access_level) EXECUTE FUNCTION client_activity_unrank_level();
-- A client inserted after its activity (a restore) is ranked with its level.
CREATE FUNCTION client_activity_unrank_new_clients() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE client_activity a SET value_rank = NULL FROM new_clients n WHERE a.client_id = n.id AND a.value_rank IS NOT NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER clients_activity_rank_insert AFTER INSERT ON clients
  REFERENCING NEW TABLE AS new_clients FOR EACH STATEMENT EXECUTE FUNCTION client_activity_unrank_new_clients();

-- What the tables hold already, as of now.
SELECT client_activity_rank(now());
ANALYZE client_activity;
