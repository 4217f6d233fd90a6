-- One row per (client, video, viewed_at): an app resending a view, even many copies at the same
-- moment, counts one play (the old read-then-insert let concurrent copies all in). Copies stored
-- before this go first, keeping the oldest row; the delete trigger takes them out of the daily
-- play counts too.
DELETE FROM video_views WHERE id IN (
  SELECT id FROM (
    SELECT id, row_number() OVER (PARTITION BY client_id, video_id, viewed_at ORDER BY id) AS copy
    FROM video_views
  ) numbered WHERE copy > 1
);
CREATE UNIQUE INDEX video_views_once ON video_views (client_id, video_id, viewed_at);
