import type { Database } from '../../server/src/db/client';
import { demoVideos, videoCategoryNames } from '../../server/seed/catalogue';

export const CATEGORIES = ['Yoga', 'HIIT', 'Pilates'];

/**
 * `count` videos: "Video 001".."Video NNN", category by i % 3, access level 1 + i % 3,
 * every fourth disabled, Vimeo ids 900000 + i.
 */
export async function insertVideos(database: Database, count: number) {
  await database.execScript(`
    DELETE FROM favorites; DELETE FROM video_views; DELETE FROM videos; DELETE FROM video_categories;
    INSERT INTO video_categories (name, sort_order) VALUES ${CATEGORIES.map((name, i) => `('${name}', ${i + 1})`).join(',')};
    INSERT INTO videos (vimeo_video_id, title, thumbnail_url, duration, enabled, access_level_id, category_id, instructor)
    SELECT (900000 + i)::text, 'Video ' || lpad(i::text, 3, '0'), 'https://img.test/' || i || '.jpg', 60 * i,
           i % 4 <> 0, 1 + i % 3,
           (SELECT id FROM video_categories WHERE sort_order = 1 + i % 3), 'Coach ' || (i % 5)
    FROM generate_series(1, ${count}) AS i;`);
  return database.query<{ id: number; title: string }>('SELECT id, title FROM videos ORDER BY id');
}

/** The demo seed's 150 videos and 10 categories (server/seed/catalogue.ts), on a clean slate. */
export async function insertDemoCatalogue(database: Database) {
  await database.execScript(`
    DELETE FROM vimeo_syncs; DELETE FROM jobs;
    DELETE FROM favorites; DELETE FROM video_views; DELETE FROM videos; DELETE FROM video_categories;`);
  await database.query('INSERT INTO video_categories (name, sort_order) SELECT name, ord FROM unnest($1::text[]) WITH ORDINALITY AS t(name, ord)', [
    videoCategoryNames,
  ]);
  const videos = demoVideos(150);
  await database.query(
    `INSERT INTO videos (vimeo_video_id, title, thumbnail_url, duration, enabled, access_level_id, category_id, instructor)
     SELECT t.id, t.title, t.thumb, t.duration, t.enabled, t.level, (SELECT id FROM video_categories WHERE name = t.category), t.instructor
     FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::boolean[], $6::int[], $7::text[], $8::text[])
       AS t(id, title, thumb, duration, enabled, level, category, instructor)`,
    [
      videos.map((v) => v.vimeo_video_id),
      videos.map((v) => v.title),
      videos.map((v) => v.thumbnail_url),
      videos.map((v) => v.duration),
      videos.map((v) => v.enabled),
      videos.map((v) => v.access_level_id),
      videos.map((v) => v.category),
      videos.map((v) => v.instructor),
    ],
  );
}
