import { COLORS, demoVideos, thumbnail, videoCategoryNames } from '../../../seed/catalogue';
import { sleep } from '../../lib/retry';
import type { CataloguePage, VimeoCatalogue } from './types';
import { toCatalogueVideo, type WireVideo } from './wire';

/**
 * A fake Vimeo library for the embedded default (no VIMEO_ACCESS_TOKEN). It overlaps the demo
 * seed (server/seed/catalogue.ts) the way a real library drifts from the database: most videos
 * are unchanged, a few were re-edited on Vimeo, a few are new and a few were removed there.
 */
const DEMO_SIZE = 150;
/** Demo videos no longer on Vimeo: the sync flags them as gone. */
export const SANDBOX_REMOVED = new Set([8, 33, 64, 104, 142]);
/** Demo videos re-edited on Vimeo: new title and length. */
const isReEdited = (i: number) => i % 17 === 3;
const NEW_TITLES = [
  'Core Ignite Premiere',
  'Sunrise Mobility Flow',
  'Kettlebell Power Hour',
  'Boxing Footwork Drills',
  'Deep Stretch Reset',
  'Barre Burn Express',
];
export const SANDBOX_PAGE_SIZE = 40;

function wireVideo(id: string, name: string, duration: number, picture: string, tags: string[]): WireVideo {
  return {
    uri: `/videos/${id}`,
    name,
    duration,
    pictures: {
      sizes: [
        { width: 100, height: 75, link: `https://i.vimeocdn.com/video/${id}-d_100x75` },
        { width: 295, height: 166, link: picture },
        { width: 640, height: 360, link: `https://i.vimeocdn.com/video/${id}-d_640x360` },
      ],
    },
    tags: tags.map((tag) => ({ name: tag })),
    categories: [],
  };
}

/** Every video of the sandbox library, in Vimeo's wire shape so the real mapping is exercised. */
export function sandboxLibrary(prefix = ''): WireVideo[] {
  const library: WireVideo[] = [];
  demoVideos(DEMO_SIZE, prefix).forEach((video, i) => {
    if (SANDBOX_REMOVED.has(i)) return;
    if (!isReEdited(i)) {
      library.push(wireVideo(video.vimeo_video_id, video.title, video.duration, video.thumbnail_url, []));
      return;
    }
    const title = `${video.title} (Extended)`;
    library.push(
      wireVideo(video.vimeo_video_id, title, video.duration + 120, thumbnail(title, video.category, COLORS[i % COLORS.length]!, prefix), [video.category]),
    );
  });
  NEW_TITLES.forEach((title, k) => {
    const category = videoCategoryNames[(k * 3) % videoCategoryNames.length]!;
    const id = String(770000000 + k * 13);
    library.push(wireVideo(id, title, 900 + k * 300, thumbnail(title, category, COLORS[(k * 3) % COLORS.length]!, prefix), [category, 'New release']));
  });
  return library;
}

export interface SandboxOptions {
  /** A pause per page so progress can be watched in the console; 0 in tests. */
  pageDelayMs: number;
  library?: WireVideo[];
  /** SERVER_PREFIX, for the demo thumbnails' URLs. */
  urlPrefix?: string;
}

export function createSandboxCatalogue(options: SandboxOptions): VimeoCatalogue {
  return {
    source: 'sandbox',
    async *pages(signal: AbortSignal): AsyncGenerator<CataloguePage> {
      const library = options.library ?? sandboxLibrary(options.urlPrefix);
      const pagesTotal = Math.max(1, Math.ceil(library.length / SANDBOX_PAGE_SIZE));
      for (let page = 1; page <= pagesTotal; page++) {
        if (options.pageDelayMs > 0) await sleep(options.pageDelayMs, signal);
        if (signal.aborted) throw signal.reason;
        const slice = library.slice((page - 1) * SANDBOX_PAGE_SIZE, page * SANDBOX_PAGE_SIZE);
        yield { page, pagesTotal, videos: slice.map(toCatalogueVideo) };
      }
    },
  };
}
