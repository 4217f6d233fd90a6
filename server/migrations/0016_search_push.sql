-- Hosted Algolia (docs/search.md): with ALGOLIA_* set, changes to customers and videos are queued here
-- by statement-level triggers and pushed to Algolia's Customers and Videos indexes in batches by
-- the 'search.push' job. Without it (the embedded default) nothing is queued: the server sets
-- app_settings 'search_push' to 'on' or 'off' at every start.
CREATE TABLE search_outbox (
  id bigserial PRIMARY KEY,
  index_name text NOT NULL CHECK (index_name IN ('Customers', 'Videos')),
  object_id bigint NOT NULL,
  queued_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION search_push_enabled() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM app_settings WHERE key = 'search_push' AND value = 'on')
$$;

CREATE FUNCTION search_outbox_clients() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT search_push_enabled() THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO search_outbox (index_name, object_id) SELECT 'Customers', id FROM new_rows;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO search_outbox (index_name, object_id)
    SELECT 'Customers', n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.first_name, n.last_name, n.email_address, n.mb_client_id)
          IS DISTINCT FROM (o.first_name, o.last_name, o.email_address, o.mb_client_id);
  ELSE
    INSERT INTO search_outbox (index_name, object_id) SELECT 'Customers', id FROM old_rows;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION search_outbox_videos() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT search_push_enabled() THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO search_outbox (index_name, object_id) SELECT 'Videos', id FROM new_rows;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO search_outbox (index_name, object_id)
    SELECT 'Videos', n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.title, n.thumbnail_url, n.instructor, n.deleted_at IS NULL)
          IS DISTINCT FROM (o.title, o.thumbnail_url, o.instructor, o.deleted_at IS NULL);
  ELSE
    INSERT INTO search_outbox (index_name, object_id) SELECT 'Videos', id FROM old_rows;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER clients_search_outbox_insert AFTER INSERT ON clients
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_outbox_clients();
CREATE TRIGGER clients_search_outbox_update AFTER UPDATE ON clients
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_outbox_clients();
CREATE TRIGGER clients_search_outbox_delete AFTER DELETE ON clients
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_outbox_clients();
CREATE TRIGGER videos_search_outbox_insert AFTER INSERT ON videos
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_outbox_videos();
CREATE TRIGGER videos_search_outbox_update AFTER UPDATE ON videos
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_outbox_videos();
CREATE TRIGGER videos_search_outbox_delete AFTER DELETE ON videos
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_outbox_videos();

-- A queue, not data: a restore re-queues what it loads (when pushing is on).
COMMENT ON TABLE search_outbox IS 'derived: changes waiting to be pushed to hosted Algolia (migration 0016)';
