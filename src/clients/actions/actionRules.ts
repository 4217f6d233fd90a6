import type { VideoOptionGroup } from '@contract/accessLevels';
import type { OptionVideo } from '@contract/clients';

/** A modal shows Saved/Sent or Error this long, then closes. */
export const MODAL_RESULT_MS = 2000;
/** The contract-sync indicator clears after this long. */
export const SYNC_INDICATOR_MS = 5000;
/** Favorite errors toast this long. */
export const FAVORITE_ERROR_TOAST_MS = 3000;

export interface FavoriteOption {
  category: string;
  video: OptionVideo;
  /** Already in the client's favorites: shown, not offered again. */
  taken: boolean;
}

/** The favorites modal's options: every video with a Vimeo id, grouped by category in the server's order. */
export function favoriteOptions(groups: readonly VideoOptionGroup[], favorites: readonly OptionVideo[]): FavoriteOption[] {
  const taken = new Set(favorites.map((video) => video.vimeo_video_id));
  return groups.flatMap((group) =>
    group.video_options
      .filter((video) => video.vimeo_video_id !== null && video.vimeo_video_id !== '')
      .map((video) => ({ category: group.category, video, taken: taken.has(video.vimeo_video_id) })),
  );
}

/** Title, ' - COACH: instructor' when there is one, and the length. */
export function favoriteOptionLabel(
  video: OptionVideo,
  texts: {
    coach: (instructor: string) => string;
    length: (seconds: number) => string;
    join: (parts: { title: string; coach: string; length: string }) => string;
  },
): string {
  const instructor = video.instructor?.trim();
  return texts.join({ title: video.title, coach: instructor ? texts.coach(instructor) : '', length: texts.length(video.duration) });
}

/** A fresh key per push modal opening: a retried request then pushes once. */
export function newIdempotencyKey(): string {
  const cryptoApi = globalThis.crypto as Crypto | undefined;
  if (cryptoApi?.randomUUID) return cryptoApi.randomUUID();
  return `push-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
