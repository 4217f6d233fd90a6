import { z } from 'zod';
import type { Database } from '../db/client';

const VideoMatchRow = z.object({
  id: z.number(),
  title: z.string(),
  thumbnail_url: z.string().nullable(),
  instructor: z.string().nullable(),
  total: z.number(),
});
export const VideoRow = VideoMatchRow.omit({ total: true });
/**
 * Videos having every word as a substring of title or instructor, titles starting with the first
 * word first, each with the total. Videos are thousands, not millions; the trigram index of
 * migration 0015 serves 3+ letters.
 */
export async function videoMatches(database: Database, words: string[], offset: number, limit: number) {
  const like = (word: string) => word.replace(/[\\%_]/g, '\\$&');
  const conditions = words.map((_, i) => `lower(v.title || ' ' || coalesce(v.instructor, '')) LIKE $${i + 4}`);
  const where = ['v.deleted_at IS NULL', ...conditions].join(' AND ');
  return database.rows(
    VideoMatchRow,
    `SELECT v.id, v.title, v.thumbnail_url, v.instructor, count(*) OVER () AS total FROM videos v WHERE ${where}
     ORDER BY lower(v.title) LIKE $3 DESC, lower(v.title), v.id OFFSET $1 LIMIT $2`,
    [offset, limit, `${like(words[0] ?? '')}%`, ...words.map((word) => `%${like(word)}%`)],
  );
}
