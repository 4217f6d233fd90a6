-- Automated pushes are sent by jobs of the durable queue (queue 'automation.send', one job per push), so
-- claiming, leases, fencing, retries and retention are the queue's. Pushes still waiting get their job
-- here; a push an old worker had claimed ('sending') waits again, its attempts kept.
UPDATE automated_pushes SET status = 'pending' WHERE status = 'sending';
INSERT INTO jobs (queue, payload, singleton_key, state, run_at, attempts, max_attempts, created_at)
SELECT 'automation.send', jsonb_build_object('automated_push_id', id), id::text, 'queued', due_at, attempts, 4, now()
FROM automated_pushes WHERE status = 'pending'
ON CONFLICT DO NOTHING;

ALTER TABLE automated_pushes DROP COLUMN locked_by;
ALTER TABLE automated_pushes DROP COLUMN locked_until;
