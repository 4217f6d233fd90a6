/** One video as the sync stores it: only what comes from Vimeo, never what staff set. */
export interface CatalogueVideo {
  vimeo_video_id: string;
  title: string;
  /** Seconds. */
  duration: number;
  /** The picture closest to 300 px wide; null when Vimeo has none yet. */
  thumbnail_url: string | null;
  /** Vimeo tag and category names. */
  tags: string[];
}

export interface CataloguePage {
  /** 1-based. */
  page: number;
  /** Known from the first page's `total`; null when Vimeo does not say. */
  pagesTotal: number | null;
  videos: CatalogueVideo[];
}

/**
 * Where the sync reads the video library from: Vimeo itself, or the sandbox catalogue of the
 * embedded default. Callers cannot tell which.
 */
export interface VimeoCatalogue {
  readonly source: 'vimeo' | 'sandbox';
  /** Every page, in order; throws VimeoError when it has to give up, aborts with `signal`. */
  pages(signal: AbortSignal): AsyncIterable<CataloguePage>;
  /** Throws CircuitOpenError while repeated failures keep the service's breaker open. */
  checkAvailable?(): void;
}

/** Why the catalogue gave up; the message is safe to show to staff. */
export class VimeoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VimeoError';
  }
}
