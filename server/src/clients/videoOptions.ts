import type { AccessLevel, VideoOptionGroup } from '@contract/accessLevels';
import type { Database } from '../db/client';
import { accessLevelRows, levelByName, levelByNumber, videoOptionRows } from './queries';

export async function accessLevels(database: Database): Promise<AccessLevel[]> {
  return accessLevelRows(database);
}

/** A level's sort_order from '2', 'VOD | BASIC' or 'basic'; null when no level has that name. */
export async function resolveAccessLevel(database: Database, raw: string): Promise<number | null> {
  const value = raw.trim();
  const level = /^\d{1,9}$/.test(value) ? await levelByNumber(database, Number(value)) : await levelByName(database, value);
  return level ?? null;
}

/** Enabled, not deleted videos at or below the level, grouped by category in category order. */
export async function videoOptionGroups(database: Database, levelSortOrder: number): Promise<VideoOptionGroup[]> {
  const rows = await videoOptionRows(database, levelSortOrder);
  const groups: VideoOptionGroup[] = [];
  for (const { category, ...video } of rows) {
    const group = groups[groups.length - 1];
    if (group?.category === category) group.video_options.push(video);
    else groups.push({ category, video_options: [video] });
  }
  return groups;
}
