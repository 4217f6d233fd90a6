import type { AccessLevel, VideoOptionGroup } from '@contract/accessLevels';
import type { OptionVideo } from '@contract/clients';
import type { Database } from '../db/client';

export async function accessLevels(database: Database): Promise<AccessLevel[]> {
  return database.query<AccessLevel>('SELECT name, sort_order FROM access_levels ORDER BY sort_order');
}

/** A level's sort_order from '2', 'VOD | BASIC' or 'basic'; null when no level has that name. */
export async function resolveAccessLevel(database: Database, raw: string): Promise<number | null> {
  const value = raw.trim();
  const rows = /^\d{1,9}$/.test(value)
    ? await database.query<{ sort_order: number }>('SELECT sort_order FROM access_levels WHERE sort_order = $1', [Number(value)])
    : await database.query<{ sort_order: number }>(
        "SELECT sort_order FROM access_levels WHERE lower(name) = lower($1) OR lower(name) = lower('VOD | ' || $1)",
        [value],
      );
  return rows[0]?.sort_order ?? null;
}

/** Enabled, not deleted videos at or below the level, grouped by category in category order. */
export async function videoOptionGroups(database: Database, levelSortOrder: number): Promise<VideoOptionGroup[]> {
  const rows = await database.query<OptionVideo & { category: string }>(
    `SELECT coalesce(vc.name, 'Uncategorized') AS category, v.vimeo_video_id, v.title, v.instructor, v.duration
     FROM videos v
     JOIN access_levels al ON al.id = v.access_level_id
     LEFT JOIN video_categories vc ON vc.id = v.category_id
     WHERE v.enabled AND v.deleted_at IS NULL AND al.sort_order <= $1
     ORDER BY vc.sort_order NULLS LAST, coalesce(vc.name, 'Uncategorized'), lower(v.title), v.id`,
    [levelSortOrder],
  );
  const groups: VideoOptionGroup[] = [];
  for (const { category, ...video } of rows) {
    const group = groups[groups.length - 1];
    if (group?.category === category) group.video_options.push(video);
    else groups.push({ category, video_options: [video] });
  }
  return groups;
}
