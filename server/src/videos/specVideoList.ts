import { VideosResponse } from '@contract/videos';
import type { Database } from '../db/client';
import { specVideos, videosVersion } from './queries';

export interface SpecVideoList {
  /** The library's version (migration 0025), also the answer's ETag. */
  version: string;
  /** The answer, serialized and checked against the contract once. */
  body: string;
}

/**
 * The spec's whole-library answer, rebuilt only when the videos table changed. The version is read
 * before the rows, so a cached answer is never older than the version it is kept under; a change
 * committed in between only makes the next call rebuild. Concurrent calls for one version share a rebuild.
 */
export function createSpecVideoList(database: Database) {
  let cached: SpecVideoList | null = null;
  let building: { version: string; answer: Promise<SpecVideoList> } | null = null;

  async function build(version: string): Promise<SpecVideoList> {
    const answer = VideosResponse.parse({ videos: await specVideos(database) });
    return { version, body: JSON.stringify(answer) };
  }

  return async function current(): Promise<SpecVideoList> {
    const version = String((await videosVersion(database)) ?? '');
    if (cached?.version === version) return cached;
    // A rebuild started for an older version would miss a change this caller must see.
    if (building?.version !== version) {
      const answer = build(version);
      const mine = { version, answer };
      building = mine;
      answer.then(
        () => (building === mine ? (building = null) : undefined),
        () => (building === mine ? (building = null) : undefined),
      );
    }
    const built = await building!.answer;
    if (!cached || Number(built.version) >= Number(cached.version)) cached = built;
    return built;
  };
}
