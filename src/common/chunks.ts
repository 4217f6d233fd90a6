import { createElement, lazy, type ComponentProps, type ComponentType } from 'react';

/**
 * Parts of the console fetched when first shown (pages, dialogs, the snackbar). A download that
 * fails is tried again; when it still fails and the server's page now names other files (a new
 * version was deployed and the old files are gone), the tab moves to the new version by reloading
 * its URL, once per version, so a broken deploy cannot make it reload forever.
 */

/** How many times a failed download is tried again, waiting 0.5 s, then 1 s. */
export const CHUNK_RETRIES = 2;
const RELOADED_FOR_KEY = 'studio-console.reloaded-for-version';

/** A part of the console whose code could not be fetched: the server is unreachable, or serves another version. */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super(`A part of the console could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ChunkLoadError';
  }
}

// Chrome, Firefox and Safari's words for a dynamic import that failed, and Vite's for a stylesheet.
const BROWSER_CHUNK_FAILURE = /dynamically imported module|Importing a module script failed|Unable to preload CSS|Failed to load module script/i;

export const isChunkLoadError = (error: unknown) => error instanceof ChunkLoadError || (error instanceof Error && BROWSER_CHUNK_FAILURE.test(error.message));

const sessionStore = (): Pick<Storage, 'getItem' | 'setItem'> | null => {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
};

/** The entry script a console page names; its file name carries the build's hash. */
export const entryScript = (html: string): string | undefined =>
  /<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/.exec(html)?.[1] ?? /<script\b[^>]*\bsrc="([^"]+)"[^>]*\btype="module"/.exec(html)?.[1];

/** What the module touches of the browser; tests replace these (jsdom cannot reload). */
export const chunkRecovery = {
  wait: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  reload: () => window.location.reload(),
  storage: sessionStore,
  /** The build this page runs. */
  runningVersion: () => entryScript(document.documentElement.outerHTML),
  /** The build the server serves now, or undefined when it cannot be asked. */
  servedVersion: async () => {
    try {
      const response = await fetch(import.meta.env.BASE_URL, { cache: 'no-store', credentials: 'same-origin', headers: { accept: 'text/html' } });
      return response.ok ? entryScript(await response.text()) : undefined;
    } catch {
      return undefined;
    }
  },
};

/**
 * Reloads the page when the server now serves another build than this page's, unless this tab
 * already reloaded for that build (its files still failing: reloading again would loop).
 */
async function movedToNewVersion(): Promise<boolean> {
  const served = await chunkRecovery.servedVersion();
  if (!served || served === chunkRecovery.runningVersion()) return false;
  const storage = chunkRecovery.storage();
  if (storage?.getItem(RELOADED_FOR_KEY) === served) return false;
  storage?.setItem(RELOADED_FOR_KEY, served);
  chunkRecovery.reload();
  return true;
}

/** `load()`, tried again on failure; after a redeploy the page reloads (and this never settles). */
export async function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  let failure: unknown;
  for (let attempt = 0; attempt <= CHUNK_RETRIES; attempt++) {
    if (attempt > 0) await chunkRecovery.wait(500 * 2 ** (attempt - 1));
    try {
      return await load();
    } catch (error) {
      failure = error;
    }
  }
  if (await movedToNewVersion()) return new Promise<never>(() => undefined);
  throw new ChunkLoadError(failure);
}

/** How to fetch again each lazyChunk whose download failed. */
const failedChunks = new Set<() => void>();

/** The failed lazyChunks fetch their code again when next rendered (an error page's "Try again"). */
export function retryFailedChunks() {
  for (const renew of [...failedChunks]) renew();
  failedChunks.clear();
}

/**
 * React.lazy over loadChunk. React.lazy keeps a failure for good (and React renders a failed part
 * once more before its error boundary shows): after retryFailedChunks this one starts over.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound: any component
export function lazyChunk<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): ComponentType<ComponentProps<T>> {
  const make = () =>
    lazy(() =>
      loadChunk(load).catch((error: unknown) => {
        failedChunks.add(() => (current = make()));
        throw error;
      }),
    );
  let current = make();
  const Chunk = (props: ComponentProps<T>) => createElement(current, props);
  return Chunk;
}
