-- Every push notification sent to one client, by staff or by an automated message (docs/features.md, docs/automation.md).
CREATE TABLE pushes (
  id bigserial PRIMARY KEY,
  client_id bigint REFERENCES clients (id) ON DELETE CASCADE,
  -- the staff member's e-mail, or 'automated'
  sent_by text NOT NULL,
  staff_user_id integer REFERENCES staff_users (id) ON DELETE SET NULL,
  -- what sent it: 'console' or an automated message's kind
  source text NOT NULL DEFAULT 'console',
  title text NOT NULL,
  body text NOT NULL,
  data jsonb,
  -- 'sending' while in flight, then 'sent' (at least one device got it), 'failed' or 'no_token'
  status text NOT NULL,
  reason text,
  -- one entry per device token: { token, outcome: sent|dead|failed, message_id?, code?, error? }
  results jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- a repeated request with the same key answers the first outcome instead of sending again
  idempotency_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX pushes_client_idx ON pushes (client_id, created_at DESC, id DESC);
CREATE UNIQUE INDEX pushes_idempotency_idx ON pushes (idempotency_key) WHERE idempotency_key IS NOT NULL;

-- Registration tokens FCM answered UNREGISTERED (or SENDER_ID_MISMATCH) for: never used again.
CREATE TABLE dead_push_tokens (
  token text PRIMARY KEY,
  code text NOT NULL,
  marked_at timestamptz NOT NULL DEFAULT now()
);
