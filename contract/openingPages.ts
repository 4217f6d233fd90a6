// No zod here: plain data both halves read.
/**
 * The pages a console is most often opened on (a bookmark, a link, a reload), each with the module
 * of its code. The server announces that code in the page it sends for such a path (modulepreload),
 * so the browser fetches it beside the console's own instead of after it. Paths are react-router
 * patterns of the console's routes; '/' is the dashboard.
 */
export const OPENING_PAGES: ReadonlyArray<{ path: string; module: string }> = [
  { path: '/', module: 'src/dashboard/Dashboard.tsx' },
  { path: '/dashboard', module: 'src/dashboard/Dashboard.tsx' },
  { path: '/clients/:list', module: 'src/clients/ClientListPage.tsx' },
  { path: '/client/:id', module: 'src/clients/ClientShow.tsx' },
];

/**
 * The name of the one chunk that holds an opening page's module with everything it needs beyond
 * the console's entry (vite.config.ts makes it; the build manifest lists it under this name). Left
 * to itself the bundler splits that code by which pages share it: the client list came in 38 files,
 * which a browser fetches six at a time over HTTP/1.1.
 */
export const openingPageChunk = (module: string): string => `page-${module.replace(/^.*\//, '').replace(/\.[a-z]+$/, '')}`;

/** Each opening page's module once, in the order of OPENING_PAGES. */
export const openingPageModules = (): string[] => [...new Set(OPENING_PAGES.map(({ module }) => module))];
