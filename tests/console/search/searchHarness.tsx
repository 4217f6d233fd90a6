import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { I18nContextProvider } from 'react-admin';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { http, HttpResponse } from 'msw';
import { SearchWidget } from '../../../src/search/SearchSlot';
import { i18nProvider } from '../../../src/providers/i18nProvider';
import type { ConsoleConfig } from '../../../src/providers/config';
import { server } from '../../support/msw';

export const searchConfig = (algolia: Partial<ConsoleConfig['algolia']> = {}): Pick<ConsoleConfig, 'algolia' | 'apiBaseUrl' | 'serverPrefix'> => ({
  algolia: { appId: 'STUDIO', searchKey: 'search-key', host: 'https://search.studio.test', ...algolia },
  apiBaseUrl: '',
  serverPrefix: '',
});

const ClientPage = () => {
  const location = useLocation();
  return <p>Opened {location.pathname + location.search}</p>;
};

/** The widget in a router (so hits can open /client/{id}) with the console's messages. */
export function renderSearch(config = searchConfig(), userOptions?: Parameters<typeof userEvent.setup>[0]) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <div>
            <SearchWidget config={config} />
            <p>Somewhere else on the page</p>
          </div>
        ),
      },
      { path: '/client/:id', element: <ClientPage /> },
    ],
    { initialEntries: ['/'] },
  );
  const view = render(
    // The sidebar's theme: the widget closes the drawer on phones (react-admin's sidebar state reads the breakpoints).
    <ThemeProvider theme={createTheme()}>
      <I18nContextProvider value={i18nProvider}>
        <RouterProvider router={router} />
      </I18nContextProvider>
    </ThemeProvider>,
  );
  return { ...view, router, user: userEvent.setup(userOptions) };
}

export interface TestHit {
  objectID: string;
  first_name: string | null;
  last_name: string | null;
  email_address: string | null;
  mb_client_id: string | null;
  related_pg_id: number;
  title: string;
}

export const hit = (id: number, first: string | null, last: string | null, email: string | null, mb: string | null = null): TestHit => ({
  objectID: String(id),
  first_name: first,
  last_name: last,
  email_address: email,
  mb_client_id: mb,
  related_pg_id: id,
  title: [first, last].filter(Boolean).join(' '),
});

/** An Algolia-shaped answer, highlighting the query in the title with the request's tags. */
export function answer(hits: TestHit[], query: string, pre: string, post: string) {
  return {
    hits: hits.map((h) => ({
      ...h,
      _highlightResult: {
        title: { value: query ? h.title.replace(new RegExp(`(${query})`, 'i'), `${pre}$1${post}`) : h.title, matchLevel: 'full', matchedWords: [query] },
        email_address: { value: h.email_address ?? '', matchLevel: 'none', matchedWords: [] },
      },
    })),
    nbHits: hits.length,
    page: 0,
    nbPages: 1,
    hitsPerPage: 20,
    processingTimeMS: 1,
    query,
    params: '',
    index: 'Customers',
  };
}

export interface SeenRequest {
  url: URL;
  query: string;
  hitsPerPage: unknown;
  contentType: string | null;
}

/**
 * Answers every search with `respond(query)`'s hits (or status) and records what the widget asked.
 */
export function searchBackend(respond: (query: string) => TestHit[] | { status: number } | Promise<TestHit[]>) {
  const seen: SeenRequest[] = [];
  server.use(
    http.post('https://search.studio.test/1/indexes/*/queries', async ({ request }) => {
      const body = JSON.parse(await request.text()) as { requests: { indexName: string; params?: Record<string, unknown>; [key: string]: unknown }[] };
      const results = [];
      for (const item of body.requests) {
        const params = { ...item, ...(item.params ?? {}) } as Record<string, unknown>;
        const query = String(params.query ?? '');
        seen.push({ url: new URL(request.url), query, hitsPerPage: params.hitsPerPage, contentType: request.headers.get('content-type') });
        const outcome = await respond(query);
        if (!Array.isArray(outcome)) return HttpResponse.json({ message: 'failed', status: outcome.status }, { status: outcome.status });
        results.push(answer(outcome, query, String(params.highlightPreTag ?? '<em>'), String(params.highlightPostTag ?? '</em>')));
      }
      return HttpResponse.json({ results });
    }),
  );
  return seen;
}
