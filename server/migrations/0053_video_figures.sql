-- Issue 24 point 6: per-video figures in the Video Manager (plays and unique viewers over 30 days, favorites,
-- last played), sortable at 10,000 videos. Counting distinct viewers over the views of every video cannot run
-- per list request, so the videos.figures job keeps one row per video (server/src/videos/figures.ts).
CREATE TABLE video_figures (
  video_id integer PRIMARY KEY REFERENCES videos (id) ON DELETE CASCADE,
  plays_30d integer NOT NULL,
  viewers_30d integer NOT NULL,
  favorites integer NOT NULL,
  last_played_at timestamptz,
  refreshed_at timestamptz NOT NULL
);
COMMENT ON TABLE video_figures IS 'derived: per-video figures, recomputed from video_views and favorites by the videos.figures job';
-- What the job reads per video: its newest view, and its favorites.
CREATE INDEX video_views_video_idx ON video_views (video_id, viewed_at DESC);
CREATE INDEX favorites_video_idx ON favorites (video_id);
