-- Overrides staff manage (issue 24 point 4): why an override was granted, and how and by whom it ended.
-- reason: the optional text staff gave with the grant (also in its audit entry).
-- end_kind: 'expired' (the expiry job, at its date), 'ended' (staff ended it early: DELETE .../override),
--   'replaced' (a newer grant, an extension among them, took its place); null while it runs.
-- ended_by: the staff member's e-mail when end_kind is 'ended'.
ALTER TABLE access_override_history
  ADD COLUMN reason text,
  ADD COLUMN end_kind text CHECK (end_kind IN ('expired', 'ended', 'replaced')),
  ADD COLUMN ended_by text;
-- The client's timeline reads a client's overrides by time (ended ones by ended_at).
CREATE INDEX access_override_history_client_ended_idx ON access_override_history (client_id, ended_at) WHERE ended_at IS NOT NULL;
