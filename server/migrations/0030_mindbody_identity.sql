-- Mindbody identity, visit scheduling and call budget (docs/integrations.md).
--
-- Client.Id can be changed by the studio (UpdateClient NewId); Client.UniqueId cannot (Mindbody
-- Public API v6 OpenAPI, Client.UniqueId). The import matches by (site, UniqueId) from now on; the
-- unique index makes a second row for one Mindbody client impossible.
ALTER TABLE clients ADD COLUMN mb_unique_id bigint;
CREATE UNIQUE INDEX clients_mb_unique_idx ON clients (mb_site_id, mb_unique_id) WHERE mb_unique_id IS NOT NULL;
-- Client.LastModifiedDateTime: orders whose visits are fetched first when the daily budget is short.
ALTER TABLE clients ADD COLUMN mb_last_modified_at timestamptz;
-- Set when the listing saw the client, cleared once its visits were imported; clients still set wait
-- for a later run (the daily call budget spreads the per-client visit calls across days).
ALTER TABLE clients ADD COLUMN mb_visits_due_since timestamptz;
CREATE INDEX clients_mb_visits_due_idx ON clients (mb_site_id) WHERE mb_visits_due_since IS NOT NULL;

-- Mindbody calls made per UTC day, all sites together: the daily limit is per API key.
CREATE TABLE mindbody_call_days (
  day date PRIMARY KEY,
  calls integer NOT NULL DEFAULT 0
);

ALTER TABLE mindbody_sync_runs ADD COLUMN calls integer NOT NULL DEFAULT 0;
-- clients whose visits wait for a later run when this one ended
ALTER TABLE mindbody_sync_runs ADD COLUMN visits_deferred integer NOT NULL DEFAULT 0;
ALTER TABLE mindbody_sync_runs ADD COLUMN clients_merged integer NOT NULL DEFAULT 0;

-- The next import lists every client again, so every row Mindbody still lists learns its UniqueId
-- (backfill); rows left without one afterwards are ones whose Id Mindbody no longer lists.
UPDATE mindbody_sync_state SET watermark = NULL, resume_offset = NULL, resume_since = NULL, resume_started_at = NULL;
