-- Background jobs live in the database so they survive restarts and several server instances
-- share them; a job is claimed with FOR UPDATE SKIP LOCKED and held by a lease.
CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  queue text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- at most one queued-or-running job per (queue, singleton_key)
  singleton_key text,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  run_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 5,
  locked_by text,
  locked_until timestamptz,
  last_error text,
  result jsonb,
  created_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX jobs_due_idx ON jobs (queue, run_at) WHERE state = 'queued';
CREATE INDEX jobs_lease_idx ON jobs (locked_until) WHERE state = 'running';
CREATE UNIQUE INDEX jobs_singleton_idx ON jobs (queue, singleton_key) WHERE singleton_key IS NOT NULL AND state IN ('queued', 'running');

-- Recurring work: whichever instance moves next_run_at first enqueues the run.
CREATE TABLE job_schedules (
  name text PRIMARY KEY,
  queue text NOT NULL,
  every_ms bigint NOT NULL,
  next_run_at timestamptz NOT NULL
);
