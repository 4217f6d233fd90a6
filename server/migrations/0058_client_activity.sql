-- Each client's last signed-in class and last stream (docs/features.md#client-filters), kept by statement
-- triggers on mindbody_visits and video_views: the activity filters and the at-risk list read one row per
-- client instead of every visit and view in a window. No foreign key: a restore empties and refills
-- clients, visits and views in one go, and a deleted client's row is never joined (ids are not reused).
CREATE TABLE client_activity (
  client_id bigint PRIMARY KEY,
  last_class_at timestamptz,
  last_stream_at timestamptz
);
COMMENT ON TABLE client_activity IS 'derived: each client''s last signed-in class and last stream, kept by triggers on mindbody_visits and video_views (migration 0058)';
CREATE INDEX client_activity_class_idx ON client_activity (last_class_at);
CREATE INDEX client_activity_stream_idx ON client_activity (last_stream_at);

-- Recomputes the rows of these clients from their visits and views (an update or a delete may lower the last one).
CREATE FUNCTION client_activity_refresh(ids bigint[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO client_activity AS a (client_id, last_class_at, last_stream_at)
  SELECT id,
         (SELECT max(v.start_at) FROM mindbody_visits v WHERE v.client_id = x.id AND v.signed_in),
         (SELECT max(w.viewed_at) FROM video_views w WHERE w.client_id = x.id)
  FROM unnest(ids) AS x(id)
  ON CONFLICT (client_id) DO UPDATE SET last_class_at = EXCLUDED.last_class_at, last_stream_at = EXCLUDED.last_stream_at;
$$;

CREATE FUNCTION client_activity_after_visits_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO client_activity AS a (client_id, last_class_at)
  SELECT client_id, max(start_at) FROM new_visits WHERE signed_in AND start_at IS NOT NULL GROUP BY client_id
  ON CONFLICT (client_id) DO UPDATE SET last_class_at = greatest(a.last_class_at, EXCLUDED.last_class_at);
  RETURN NULL;
END $$;

CREATE FUNCTION client_activity_after_views_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO client_activity AS a (client_id, last_stream_at)
  SELECT client_id, max(viewed_at) FROM new_views GROUP BY client_id
  ON CONFLICT (client_id) DO UPDATE SET last_stream_at = greatest(a.last_stream_at, EXCLUDED.last_stream_at);
  RETURN NULL;
END $$;

CREATE FUNCTION client_activity_after_visits_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM client_activity_refresh(ARRAY(SELECT client_id FROM old_visits UNION SELECT client_id FROM new_visits));
  ELSE
    PERFORM client_activity_refresh(ARRAY(SELECT DISTINCT client_id FROM old_visits));
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION client_activity_after_views_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM client_activity_refresh(ARRAY(SELECT client_id FROM old_views UNION SELECT client_id FROM new_views));
  ELSE
    PERFORM client_activity_refresh(ARRAY(SELECT DISTINCT client_id FROM old_views));
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION client_activity_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'video_views' THEN UPDATE client_activity SET last_stream_at = NULL WHERE last_stream_at IS NOT NULL;
  ELSE UPDATE client_activity SET last_class_at = NULL WHERE last_class_at IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER mindbody_visits_activity_insert AFTER INSERT ON mindbody_visits
  REFERENCING NEW TABLE AS new_visits FOR EACH STATEMENT EXECUTE FUNCTION client_activity_after_visits_insert();
CREATE TRIGGER mindbody_visits_activity_update AFTER UPDATE ON mindbody_visits
  REFERENCING OLD TABLE AS old_visits NEW TABLE AS new_visits FOR EACH STATEMENT EXECUTE FUNCTION client_activity_after_visits_change();
CREATE TRIGGER mindbody_visits_activity_delete AFTER DELETE ON mindbody_visits
  REFERENCING OLD TABLE AS old_visits FOR EACH STATEMENT EXECUTE FUNCTION client_activity_after_visits_change();
CREATE TRIGGER mindbody_visits_activity_truncate AFTER TRUNCATE ON mindbody_visits
  FOR EACH STATEMENT EXECUTE FUNCTION client_activity_after_truncate();
CREATE TRIGGER video_views_activity_insert AFTER INSERT ON video_views
  REFERENCING NEW TABLE AS new_views FOR EACH STATEMENT EXECUTE FUNCTION client_activity_after_views_insert();
CREATE TRIGGER video_views_activity_update AFTER UPDATE ON video_views
  REFERENCING OLD TABLE AS old_views NEW TABLE AS new_views FOR EACH STATEMENT EXECUTE FUNCTION client_activity_after_views_change();
CREATE TRIGGER video_views_activity_delete AFTER DELETE ON video_views
  REFERENCING OLD TABLE AS old_views FOR EACH STATEMENT EXECUTE FUNCTION client_activity_after_views_change();
CREATE TRIGGER video_views_activity_truncate AFTER TRUNCATE ON video_views
  FOR EACH STATEMENT EXECUTE FUNCTION client_activity_after_truncate();

-- What the tables hold already.
INSERT INTO client_activity (client_id, last_class_at, last_stream_at)
SELECT client_id, max(class_at), max(stream_at) FROM (
  SELECT client_id, max(start_at) AS class_at, NULL::timestamptz AS stream_at FROM mindbody_visits WHERE signed_in GROUP BY client_id
  UNION ALL SELECT client_id, NULL, max(viewed_at) FROM video_views GROUP BY client_id
) a GROUP BY client_id;
ANALYZE client_activity;
