-- Planning automated messages without re-reading two days of history on every run (docs/automation.md; on a
-- million clients, one run held PGlite's only connection for seconds).

-- How far the weekly and absence triggers have been planned; the next run starts there.
CREATE TABLE automation_plan_marks (
  message_type integer PRIMARY KEY REFERENCES message_types (id),
  planned_through timestamptz NOT NULL
);

-- Missed Class and Cancelled Class find visits by these moments.
CREATE INDEX mindbody_visits_missed_idx ON mindbody_visits ((COALESCE(end_at, start_at))) WHERE missed;
CREATE INDEX mindbody_visits_late_cancel_idx ON mindbody_visits ((COALESCE(last_modified_at, imported_at))) WHERE late_cancelled;
-- #notetoself and Extended Absense find signed-in classes by when they started.
CREATE INDEX mindbody_visits_signed_in_idx ON mindbody_visits (start_at) WHERE signed_in;
