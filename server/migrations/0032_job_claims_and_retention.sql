-- Lease fencing: every claim writes a fresh token; heartbeats, completions and failures only count when
-- the row still carries the token they were claimed with. A worker whose lease ran out (and whose job
-- another worker has since claimed) can then no longer overwrite that worker's claim or its result.
ALTER TABLE jobs ADD COLUMN claim_token text;

-- Retention: finished jobs are pruned after JOB_RETENTION_DAYS, oldest first, in batches.
CREATE INDEX jobs_finished_idx ON jobs (finished_at) WHERE state IN ('done', 'failed');

-- A Vimeo sync's own row (progress, outcome) outlives its pruned job: the console keeps showing it.
ALTER TABLE vimeo_syncs ALTER COLUMN job_id DROP NOT NULL;
ALTER TABLE vimeo_syncs DROP CONSTRAINT vimeo_syncs_job_id_fkey;
ALTER TABLE vimeo_syncs ADD CONSTRAINT vimeo_syncs_job_id_fkey FOREIGN KEY (job_id) REFERENCES jobs (id) ON DELETE SET NULL;
