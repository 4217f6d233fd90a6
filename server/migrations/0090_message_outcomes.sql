-- Did a message work? (docs/automation.md#did-it-work-goals-holdouts-and-lift): a goal and a window per
-- broadcast and automated type, a held-out share of the audience, and one outcome row per client a
-- message was meant for, whose delivery, open and conversion are kept up to date by the triggers below,
-- so a message's results are one small aggregate.
ALTER TABLE broadcasts
  ADD COLUMN goal text NOT NULL DEFAULT 'any' CHECK (goal IN ('class', 'stream', 'purchase', 'any')),
  ADD COLUMN goal_window_days integer NOT NULL DEFAULT 7 CHECK (goal_window_days BETWEEN 1 AND 30),
  ADD COLUMN holdout_percent integer NOT NULL DEFAULT 0 CHECK (holdout_percent BETWEEN 0 AND 50),
  -- clients kept out (not in broadcast_recipients, so its counts still add up to recipients)
  ADD COLUMN held_out integer NOT NULL DEFAULT 0;

-- When the app reported the push opened (POST /api/app/v1/push-opened).
ALTER TABLE pushes ADD COLUMN opened_at timestamptz;
CREATE INDEX pushes_opened_idx ON pushes (client_id, opened_at DESC, id DESC) WHERE opened_at IS NOT NULL;

CREATE TABLE message_outcomes (
  id bigserial PRIMARY KEY,
  -- a broadcast's, or an automated type's (then automated_push_id and week)
  broadcast_id bigint REFERENCES broadcasts (id) ON DELETE CASCADE,
  message_type integer REFERENCES message_types (id),
  automated_push_id bigint UNIQUE REFERENCES automated_pushes (id) ON DELETE CASCADE,
  -- the studio-local Monday of the week it was sent in (automated types' results are by week)
  week date,
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  -- kept out: never sent to
  held_out boolean NOT NULL DEFAULT false,
  -- which version of a broadcast's text (0 = the first), null for automated types
  variant smallint,
  goal text NOT NULL CHECK (goal IN ('class', 'stream', 'purchase', 'any')),
  window_days integer NOT NULL CHECK (window_days BETWEEN 1 AND 30),
  -- when the push went out (the push's own time once there is one; for the held-out, when the others' did)
  sent_at timestamptz NOT NULL,
  push_id bigint REFERENCES pushes (id) ON DELETE SET NULL,
  -- the push's status (pushes.status: sending, sent, queued, failed, no_token), kept by the triggers below
  push_status text,
  opened_at timestamptz,
  -- the first goal event in [sent_at, sent_at + window_days), kept by the triggers below
  converted_at timestamptz,
  CHECK ((broadcast_id IS NULL) <> (message_type IS NULL))
);
COMMENT ON TABLE message_outcomes IS 'derived in part: push_status, opened_at and converted_at are kept by triggers on pushes, mindbody_visits, video_views and purchases (migration 0090)';
CREATE UNIQUE INDEX message_outcomes_broadcast_idx ON message_outcomes (broadcast_id, client_id) WHERE broadcast_id IS NOT NULL;
CREATE INDEX message_outcomes_type_idx ON message_outcomes (message_type, week) WHERE message_type IS NOT NULL;
CREATE INDEX message_outcomes_client_idx ON message_outcomes (client_id, sent_at);
CREATE UNIQUE INDEX message_outcomes_push_idx ON message_outcomes (push_id) WHERE push_id IS NOT NULL;
CREATE INDEX message_outcomes_held_out_idx ON message_outcomes (client_id, sent_at DESC, id DESC) WHERE held_out;

-- The client's first goal event in [since, since + days): a signed-in class (its start), a stream, a purchase.
-- (plpgsql: its plans are kept per session; a SQL function's were made again on every call, ~5 ms each on PGlite)
CREATE FUNCTION message_outcome_first_goal(client bigint, goal text, since timestamptz, days integer) RETURNS timestamptz LANGUAGE plpgsql STABLE AS $$
DECLARE
  until timestamptz := since + days * interval '1 day';
  first timestamptz;
  found_at timestamptz;
BEGIN
  IF goal IN ('class', 'any') THEN
    SELECT v.start_at INTO first FROM mindbody_visits v
      WHERE v.client_id = client AND v.signed_in AND v.start_at >= since AND v.start_at < until ORDER BY v.start_at LIMIT 1;
  END IF;
  IF goal IN ('stream', 'any') THEN
    SELECT w.viewed_at INTO found_at FROM video_views w
      WHERE w.client_id = client AND w.viewed_at >= since AND w.viewed_at < until ORDER BY w.viewed_at LIMIT 1;
    IF found_at IS NOT NULL AND (first IS NULL OR found_at < first) THEN first := found_at; END IF;
    found_at := NULL;
  END IF;
  IF goal IN ('purchase', 'any') THEN
    SELECT p.purchased_at INTO found_at FROM purchases p
      WHERE p.client_id = client AND p.purchased_at >= since AND p.purchased_at < until ORDER BY p.purchased_at LIMIT 1;
    IF found_at IS NOT NULL AND (first IS NULL OR found_at < first) THEN first := found_at; END IF;
  END IF;
  RETURN first;
END $$;

-- A row whose start or goal moves is measured again.
CREATE FUNCTION message_outcomes_before_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.sent_at IS DISTINCT FROM OLD.sent_at OR NEW.goal IS DISTINCT FROM OLD.goal OR NEW.window_days IS DISTINCT FROM OLD.window_days THEN
    NEW.converted_at := message_outcome_first_goal(NEW.client_id, NEW.goal, NEW.sent_at, NEW.window_days);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER message_outcomes_measure BEFORE UPDATE ON message_outcomes FOR EACH ROW EXECUTE FUNCTION message_outcomes_before_update();

-- Rows of these clients whose window may hold an event between these times are measured again.
CREATE FUNCTION message_outcomes_remeasure(events jsonb) RETURNS void LANGUAGE sql AS $$
  UPDATE message_outcomes o SET converted_at = message_outcome_first_goal(o.client_id, o.goal, o.sent_at, o.window_days)
  FROM (SELECT DISTINCT (e->>'client_id')::bigint AS client_id, (e->>'at')::timestamptz AS at FROM jsonb_array_elements(events) e) e
  WHERE o.client_id = e.client_id AND o.sent_at <= e.at AND o.sent_at > e.at - interval '30 days';
$$;

CREATE FUNCTION message_outcomes_after_visits() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- nothing measured yet (a fresh database, a seed's bulk inserts): nothing to do
  IF NOT EXISTS (SELECT 1 FROM message_outcomes) THEN RETURN NULL; END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM message_outcomes_remeasure(coalesce((SELECT jsonb_agg(jsonb_build_object('client_id', client_id, 'at', start_at)) FROM new_rows WHERE start_at IS NOT NULL), '[]'));
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM message_outcomes_remeasure(coalesce((SELECT jsonb_agg(jsonb_build_object('client_id', client_id, 'at', start_at)) FROM old_rows WHERE start_at IS NOT NULL), '[]'));
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION message_outcomes_after_views() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- nothing measured yet (a fresh database, a seed's bulk inserts): nothing to do
  IF NOT EXISTS (SELECT 1 FROM message_outcomes) THEN RETURN NULL; END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM message_outcomes_remeasure(coalesce((SELECT jsonb_agg(jsonb_build_object('client_id', client_id, 'at', viewed_at)) FROM new_rows), '[]'));
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM message_outcomes_remeasure(coalesce((SELECT jsonb_agg(jsonb_build_object('client_id', client_id, 'at', viewed_at)) FROM old_rows), '[]'));
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION message_outcomes_after_purchases() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- nothing measured yet (a fresh database, a seed's bulk inserts): nothing to do
  IF NOT EXISTS (SELECT 1 FROM message_outcomes) THEN RETURN NULL; END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM message_outcomes_remeasure(coalesce((SELECT jsonb_agg(jsonb_build_object('client_id', client_id, 'at', purchased_at))
      FROM new_rows WHERE client_id IS NOT NULL AND purchased_at IS NOT NULL), '[]'));
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM message_outcomes_remeasure(coalesce((SELECT jsonb_agg(jsonb_build_object('client_id', client_id, 'at', purchased_at))
      FROM old_rows WHERE client_id IS NOT NULL AND purchased_at IS NOT NULL), '[]'));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER message_outcomes_visits_insert AFTER INSERT ON mindbody_visits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_outcomes_after_visits();
CREATE TRIGGER message_outcomes_visits_update AFTER UPDATE ON mindbody_visits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_outcomes_after_visits();
CREATE TRIGGER message_outcomes_visits_delete AFTER DELETE ON mindbody_visits REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION message_outcomes_after_visits();
CREATE TRIGGER message_outcomes_views_insert AFTER INSERT ON video_views REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_outcomes_after_views();
CREATE TRIGGER message_outcomes_views_update AFTER UPDATE ON video_views REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_outcomes_after_views();
CREATE TRIGGER message_outcomes_views_delete AFTER DELETE ON video_views REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION message_outcomes_after_views();
CREATE TRIGGER message_outcomes_purchases_insert AFTER INSERT ON purchases REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_outcomes_after_purchases();
CREATE TRIGGER message_outcomes_purchases_update AFTER UPDATE ON purchases REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_outcomes_after_purchases();
CREATE TRIGGER message_outcomes_purchases_delete AFTER DELETE ON purchases REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION message_outcomes_after_purchases();

-- A push of a broadcast or an automated message (its data names which) becomes its outcome row's
-- push: its own time is the start of the window, and its delivery and open follow it.
CREATE FUNCTION message_outcomes_after_pushes_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE message_outcomes o SET push_id = p.id, sent_at = p.created_at, push_status = p.status, opened_at = p.opened_at
  FROM new_rows p
  WHERE p.data->>'broadcast_id' ~ '^[0-9]{1,18}$' AND o.broadcast_id = (p.data->>'broadcast_id')::bigint AND o.client_id = p.client_id AND NOT o.held_out;
  UPDATE message_outcomes o SET push_id = p.id, sent_at = p.created_at, push_status = p.status, opened_at = p.opened_at
  FROM new_rows p
  WHERE p.data->>'automated_push_id' ~ '^[0-9]{1,18}$' AND o.automated_push_id = (p.data->>'automated_push_id')::bigint AND NOT o.held_out;
  RETURN NULL;
END $$;
CREATE FUNCTION message_outcomes_after_pushes_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE message_outcomes o SET push_status = p.status, opened_at = p.opened_at
  FROM new_rows p
  WHERE o.push_id = p.id AND (o.push_status IS DISTINCT FROM p.status OR o.opened_at IS DISTINCT FROM p.opened_at);
  RETURN NULL;
END $$;
CREATE TRIGGER message_outcomes_pushes_insert AFTER INSERT ON pushes REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_outcomes_after_pushes_insert();
CREATE TRIGGER message_outcomes_pushes_update AFTER UPDATE ON pushes REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION message_outcomes_after_pushes_update();

-- A scheduled broadcast starts later than planned (quiet hours): its rows without a push start then.
CREATE FUNCTION message_outcomes_after_broadcast_start() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE message_outcomes SET sent_at = NEW.started_at WHERE broadcast_id = NEW.id AND push_id IS NULL AND sent_at IS DISTINCT FROM NEW.started_at;
  RETURN NULL;
END $$;
CREATE TRIGGER message_outcomes_broadcast_start AFTER UPDATE OF started_at ON broadcasts FOR EACH ROW
  WHEN (NEW.started_at IS NOT NULL AND OLD.started_at IS DISTINCT FROM NEW.started_at) EXECUTE FUNCTION message_outcomes_after_broadcast_start();
