-- Broadcasts sent in batches, paced by FCM, with counts that add up (docs/automation.md#broadcasts).
--
-- A recipient is 'sending' while its batch is in flight (claimed by one run of the broadcasts.send job),
-- 'sent' only once FCM accepted its message, 'retrying' while FCM asked to wait (QUOTA_EXCEEDED,
-- UNAVAILABLE) until retry_at, 'failed' with its reason in `failure`, 'skipped' with skip_reason.
ALTER TABLE broadcast_recipients ADD COLUMN failure text;
ALTER TABLE broadcast_recipients ADD COLUMN attempts integer NOT NULL DEFAULT 0;
ALTER TABLE broadcast_recipients ADD COLUMN retry_at timestamptz;
DROP INDEX broadcast_recipients_pending_idx;
-- What is still to do: pending, in flight or waiting to retry.
CREATE INDEX broadcast_recipients_open_idx ON broadcast_recipients (broadcast_id, client_id) WHERE status IN ('pending', 'sending', 'retrying');
-- A push retried by push.retry (the earlier way) finds its recipient.
CREATE INDEX broadcast_recipients_push_idx ON broadcast_recipients (push_id) WHERE status = 'retrying';
-- Recipients counted 'sent' while their push only waited for a retry were never sent: retrying.
UPDATE broadcast_recipients r SET status = 'retrying' FROM pushes p WHERE p.id = r.push_id AND r.status = 'sent' AND p.status = 'queued';
UPDATE broadcasts b SET status = 'sending', finished_at = NULL
WHERE b.status = 'sent' AND EXISTS (SELECT 1 FROM broadcast_recipients r WHERE r.broadcast_id = b.id AND r.status = 'retrying');

-- One broadcast (or bulk action) per intent: a request repeated with the same Idempotency-Key answers
-- the first one. The key is kept per staff member and call ('<staff id>:<call>:<key>'), with a digest
-- of the request so the same key with another request is refused.
ALTER TABLE broadcasts ADD COLUMN idempotency_key text;
ALTER TABLE broadcasts ADD COLUMN request_digest text;
CREATE UNIQUE INDEX broadcasts_idempotency_idx ON broadcasts (idempotency_key) WHERE idempotency_key IS NOT NULL;
-- OneSignal-style throttling of one broadcast (null: as fast as the channel allows).
ALTER TABLE broadcasts ADD COLUMN max_per_minute integer;

ALTER TABLE bulk_actions ADD COLUMN idempotency_key text;
ALTER TABLE bulk_actions ADD COLUMN request_digest text;
CREATE UNIQUE INDEX bulk_actions_idempotency_idx ON bulk_actions (idempotency_key) WHERE idempotency_key IS NOT NULL;
