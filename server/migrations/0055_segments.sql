-- Saved segments (docs/features.md#segments): a client filter (contract/clientFilter.ts, as JSON) under a name.
CREATE TABLE segments (
  id serial PRIMARY KEY,
  name text NOT NULL,
  filter jsonb NOT NULL,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX segments_name_idx ON segments (lower(name));

-- The activity filters read client_activity (migration 0058).
-- app_installed reads a client's device records that may be pushed to (debug_records_client_idx of 0028 leads
-- with client_id too, but carries every record); opted_out = true is a small part of the clients.
CREATE INDEX debug_records_push_client_idx ON debug_records (client_id) WHERE used_for_push;
CREATE INDEX clients_opted_out_idx ON clients (id) WHERE automated_messages_opt_out;
