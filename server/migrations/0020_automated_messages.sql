-- Automated messages (docs/automation.md): the six message types sent by themselves.

-- Trigger settings of one message type; missing keys take the defaults in server/src/automation/settings.ts.
CREATE TABLE automation_settings (
  message_type integer PRIMARY KEY REFERENCES message_types (id),
  settings jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz NOT NULL,
  updated_by text
);

-- One row per trigger event and client. The unique event key is what makes every trigger fire at
-- most once, whichever server instance plans it and however often it is planned again.
CREATE TABLE automated_pushes (
  id bigserial PRIMARY KEY,
  message_type integer NOT NULL REFERENCES message_types (id),
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  -- e.g. visit:123, week:2026-11-23, absence:2026-11-01T09:00:00.000Z (the client id is part of the unique key)
  event_key text NOT NULL,
  -- values for the placeholders (class_name, class_count, days_absent), taken when the event was planned
  context jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- pending: waits for due_at; sending: claimed by a worker until locked_until; then sent | skipped | failed
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'skipped', 'failed')),
  skip_reason text,
  -- when the trigger wanted it out; due_at moves on for quiet hours and retries
  planned_for timestamptz NOT NULL,
  due_at timestamptz NOT NULL,
  deferred boolean NOT NULL DEFAULT false,
  push_message_id integer REFERENCES push_messages (id) ON DELETE SET NULL,
  -- the row of the pushes table (migration 0012) this became, with FCM's per-device results
  push_id bigint REFERENCES pushes (id) ON DELETE SET NULL,
  title text,
  body text,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  locked_by text,
  locked_until timestamptz,
  -- the studio-local day it was sent on (daily cap)
  local_day date,
  created_at timestamptz NOT NULL,
  finished_at timestamptz,
  UNIQUE (message_type, client_id, event_key)
);
CREATE INDEX automated_pushes_due_idx ON automated_pushes (due_at) WHERE status = 'pending';
CREATE INDEX automated_pushes_lease_idx ON automated_pushes (locked_until) WHERE status = 'sending';
CREATE INDEX automated_pushes_client_idx ON automated_pushes (client_id, created_at DESC);
CREATE INDEX automated_pushes_counts_idx ON automated_pushes (message_type, finished_at);
-- High Five and Cancelled Class look visits up by when the class ended / the visit last changed.
CREATE INDEX mindbody_visits_end_idx ON mindbody_visits (end_at);

-- Automated pushes a client got per studio-local day; a conditional upsert reserves a slot so two
-- workers can never both send the last allowed push of the day.
CREATE TABLE automated_push_days (
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  local_day date NOT NULL,
  sent integer NOT NULL DEFAULT 0,
  PRIMARY KEY (client_id, local_day)
);

-- Clients who asked for no automated messages (staff set it on the client page).
ALTER TABLE clients ADD COLUMN automated_messages_opt_out boolean NOT NULL DEFAULT false;

-- A staff member's own device token for 'Send test to me'.
ALTER TABLE staff_users ADD COLUMN device_token text;
