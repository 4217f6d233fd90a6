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
