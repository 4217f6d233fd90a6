-- The spec's video list is the whole library (10,000 videos: over a megabyte of JSON, 100 ms of
-- PGlite). Each server instance keeps the answer until this counter moves (bench/README.md: under load,
-- rebuilding it on every call held PGlite's one connection for most of the time).
CREATE TABLE table_versions (
  name text PRIMARY KEY,
  version bigint NOT NULL DEFAULT 0
);
INSERT INTO table_versions (name) VALUES ('videos');

-- Bumped once per transaction that changed videos, as it commits: deferred, so the version row is
-- locked only for the moment of the commit and two writers of videos can never deadlock on it.
CREATE FUNCTION bump_table_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('studio.bumped_' || TG_TABLE_NAME, true) IS DISTINCT FROM pg_current_xact_id()::text THEN
    PERFORM set_config('studio.bumped_' || TG_TABLE_NAME, pg_current_xact_id()::text, true);
    UPDATE table_versions SET version = version + 1 WHERE name = TG_TABLE_NAME;
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER videos_version AFTER INSERT OR UPDATE OR DELETE ON videos
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_table_version();
CREATE TRIGGER videos_version_truncate AFTER TRUNCATE ON videos FOR EACH STATEMENT EXECUTE FUNCTION bump_table_version();
