-- Video Manager and Vimeo sync (docs/features.md).

-- What Vimeo says about a video, kept apart from what staff set (enabled, access level,
-- category, instructor, deleted_at), which a sync never touches.
ALTER TABLE videos ADD COLUMN vimeo_tags text[] NOT NULL DEFAULT '{}';
-- Set when staff change the title, so a later sync does not put Vimeo's title back.
ALTER TABLE videos ADD COLUMN title_edited boolean NOT NULL DEFAULT false;
-- When a complete sync last found the video missing from Vimeo; cleared if it comes back.
ALTER TABLE videos ADD COLUMN vimeo_missing_since timestamptz;

-- The Video Manager list: live rows sorted by title or id, title search, filters.
CREATE INDEX videos_live_title_idx ON videos (title, id) WHERE deleted_at IS NULL;
CREATE INDEX videos_title_trgm_idx ON videos USING gin (title gin_trgm_ops);
CREATE INDEX videos_access_level_idx ON videos (access_level_id);

-- One row per sync: its progress while it runs and its outcome after.
CREATE TABLE vimeo_syncs (
  id bigserial PRIMARY KEY,
  job_id bigint NOT NULL UNIQUE REFERENCES jobs (id) ON DELETE CASCADE,
  source text NOT NULL CHECK (source IN ('vimeo', 'sandbox')),
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  requested_by text,
  pages_done integer NOT NULL DEFAULT 0,
  pages_total integer,
  videos_seen integer NOT NULL DEFAULT 0,
  videos_added integer NOT NULL DEFAULT 0,
  videos_updated integer NOT NULL DEFAULT 0,
  videos_missing integer NOT NULL DEFAULT 0,
  error text,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX vimeo_syncs_finished_idx ON vimeo_syncs (finished_at DESC) WHERE state = 'done';
