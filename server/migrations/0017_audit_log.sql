-- Who did what to which record, written in the same transaction as the change itself
-- (server/src/audit/record.ts). Staff are kept by e-mail as well as id, so the history
-- survives removing an account, and failed sign-ins can name the account that was tried.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  staff_user_id integer,
  staff_email text,
  action text NOT NULL,
  target_type text NOT NULL,
  target_id text,
  client_id bigint,
  before jsonb,
  after jsonb,
  ip text
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC);
CREATE INDEX audit_log_client_idx ON audit_log (client_id, at DESC) WHERE client_id IS NOT NULL;
CREATE INDEX audit_log_staff_idx ON audit_log (staff_email, at DESC);
CREATE INDEX audit_log_action_idx ON audit_log (action, at DESC);
