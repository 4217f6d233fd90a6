-- Bulk overrides (docs/features.md#bulk-actions): an access-level override granted to many clients,
-- by the bulk.override job beyond one page, with an audit entry per client.
CREATE TABLE bulk_actions (
  id bigserial PRIMARY KEY,
  -- 'override'
  kind text NOT NULL,
  -- { new_vod_access_level, adminOverrideDate }
  params jsonb NOT NULL,
  -- the client filter the targets were selected by, null for picked clients
  filter jsonb,
  -- running | done
  status text NOT NULL,
  total integer NOT NULL DEFAULT 0,
  staff_user_id integer REFERENCES staff_users (id) ON DELETE SET NULL,
  staff_email text,
  ip text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);

CREATE TABLE bulk_action_targets (
  bulk_action_id bigint NOT NULL REFERENCES bulk_actions (id) ON DELETE CASCADE,
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  -- pending | done | failed
  status text NOT NULL DEFAULT 'pending',
  error text,
  PRIMARY KEY (bulk_action_id, client_id)
);
CREATE INDEX bulk_action_targets_pending_idx ON bulk_action_targets (bulk_action_id, client_id) WHERE status = 'pending';
