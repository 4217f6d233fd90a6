-- Broadcasts and bulk pushes (docs/automation.md#broadcasts): one push to many clients, sent by the
-- broadcasts.send job on the queue's messages lane, under quiet hours and the daily cap.
CREATE TABLE broadcasts (
  id bigserial PRIMARY KEY,
  -- 'broadcast' (to a segment or a filter) or 'bulk_push' (selected clients of a list; an audit entry per client)
  kind text NOT NULL DEFAULT 'broadcast',
  title text NOT NULL,
  body text NOT NULL,
  -- the client filter the recipients were selected by (contract/clientFilter.ts), null for picked clients
  filter jsonb,
  segment_id integer REFERENCES segments (id) ON DELETE SET NULL,
  -- draft | scheduled | sending | sent | cancelled
  status text NOT NULL,
  send_at timestamptz,
  recipients integer NOT NULL DEFAULT 0,
  staff_user_id integer REFERENCES staff_users (id) ON DELETE SET NULL,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX broadcasts_created_idx ON broadcasts (created_at DESC, id DESC);

-- Who a broadcast goes to, fixed when it is sent or scheduled, and what happened to each.
CREATE TABLE broadcast_recipients (
  broadcast_id bigint NOT NULL REFERENCES broadcasts (id) ON DELETE CASCADE,
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  -- pending | sent | failed | skipped
  status text NOT NULL DEFAULT 'pending',
  -- opted_out | daily_cap | no_token
  skip_reason text,
  push_id bigint,
  PRIMARY KEY (broadcast_id, client_id)
);
CREATE INDEX broadcast_recipients_pending_idx ON broadcast_recipients (broadcast_id, client_id) WHERE status = 'pending';
