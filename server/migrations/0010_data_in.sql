-- Data in (docs/integrations.md): the Mindbody client import, RevenueCat webhooks and the mobile app's reports.

-- Class visits imported from Mindbody (GET /client/clientvisits), for attendance-based messages.
CREATE TABLE mindbody_visits (
  id bigserial PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  mb_site_id integer NOT NULL,
  -- Mindbody's Visit.Id, unique within a site
  mb_visit_id bigint NOT NULL,
  mb_client_id text,
  class_id bigint,
  class_name text,
  location_id integer,
  staff_id bigint,
  start_at timestamptz,
  end_at timestamptz,
  -- signed_in | missed | late_cancelled | booked, derived from the flags below
  attendance text NOT NULL,
  signed_in boolean NOT NULL DEFAULT false,
  missed boolean NOT NULL DEFAULT false,
  late_cancelled boolean NOT NULL DEFAULT false,
  make_up boolean NOT NULL DEFAULT false,
  web_signup boolean NOT NULL DEFAULT false,
  appointment_status text,
  last_modified_at timestamptz,
  imported_at timestamptz NOT NULL,
  UNIQUE (mb_site_id, mb_visit_id)
);
CREATE INDEX mindbody_visits_client_idx ON mindbody_visits (client_id, start_at DESC);

-- Where the next import of a site starts: after a completed listing, the changes since `watermark`;
-- after an interrupted one, the same listing again from `resume_offset`.
CREATE TABLE mindbody_sync_state (
  site_id integer PRIMARY KEY,
  watermark timestamptz,
  resume_offset integer,
  resume_since timestamptz,
  resume_started_at timestamptz
);

-- One row per site per import run: progress while it runs, the outcome once it ends.
CREATE TABLE mindbody_sync_runs (
  id bigserial PRIMARY KEY,
  site_id integer NOT NULL,
  job_id bigint,
  kind text NOT NULL CHECK (kind IN ('full', 'incremental')),
  modified_since timestamptz,
  start_offset integer NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  total_clients integer,
  pages integer NOT NULL DEFAULT 0,
  clients_seen integer NOT NULL DEFAULT 0,
  clients_created integer NOT NULL DEFAULT 0,
  clients_updated integer NOT NULL DEFAULT 0,
  visits_imported integer NOT NULL DEFAULT 0,
  visit_errors integer NOT NULL DEFAULT 0,
  -- where a failed run stopped; the next run continues there
  next_offset integer,
  error text
);
CREATE INDEX mindbody_sync_runs_started_idx ON mindbody_sync_runs (started_at DESC, id DESC);

-- Every RevenueCat webhook delivery, stored once per event id before anything else happens.
CREATE TABLE revenuecat_events (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL UNIQUE,
  type text NOT NULL,
  app_user_id text,
  original_app_user_id text,
  aliases jsonb NOT NULL DEFAULT '[]'::jsonb,
  email text,
  environment text,
  event_at timestamptz,
  body jsonb NOT NULL,
  received_at timestamptz NOT NULL,
  -- received: not processed yet; unmatched: no client yet, retried later; processed / ignored: done
  state text NOT NULL DEFAULT 'received' CHECK (state IN ('received', 'processed', 'unmatched', 'ignored')),
  client_id bigint REFERENCES clients (id) ON DELETE SET NULL,
  attempts integer NOT NULL DEFAULT 0,
  processed_at timestamptz,
  note text
);
CREATE INDEX revenuecat_events_pending_idx ON revenuecat_events (processed_at, id) WHERE state IN ('received', 'unmatched');

-- Purchases made through RevenueCat: one row per store transaction (a renewal is a new row).
ALTER TABLE purchases
  ADD COLUMN rc_transaction_id text,
  ADD COLUMN rc_original_transaction_id text,
  ADD COLUMN rc_store text,
  ADD COLUMN rc_environment text,
  -- event_timestamp of the last event applied, so an older event delivered late changes nothing
  ADD COLUMN rc_event_at timestamptz;
CREATE UNIQUE INDEX purchases_rc_transaction_idx ON purchases (rc_transaction_id) WHERE rc_transaction_id IS NOT NULL;
CREATE INDEX purchases_rc_original_transaction_idx ON purchases (rc_original_transaction_id) WHERE rc_original_transaction_id IS NOT NULL;
CREATE INDEX purchases_revenue_cat_user_idx ON purchases (revenue_cat_user_id) WHERE revenue_cat_user_id IS NOT NULL;
-- A cancelled purchase gives access until it expires; the sweep finds those that just lapsed.
CREATE INDEX purchases_cancelled_expiry_idx ON purchases (expires_at) WHERE subscription_status = 'cancelled';

-- Webhook events find their client by RevenueCat user id.
CREATE INDEX clients_revenue_cat_user_idx ON clients (revenue_cat_user_id) WHERE revenue_cat_user_id IS NOT NULL;

-- Debug reports that arrived before their client existed are attached when the client is imported;
-- the partial index keeps that lookup to the few unattached rows.
CREATE INDEX debug_records_unlinked_idx ON debug_records (lower(email), mb_client_id) WHERE client_id IS NULL;
