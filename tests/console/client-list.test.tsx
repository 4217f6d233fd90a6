import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Client, ClientListPage } from '@contract/clients';
import { deferred, server, signedIn, testUser } from '../support/msw';
import type { IsAuthenticatedResponse } from '@contract/auth';
import { SESSION_STATE_ELEMENT_ID } from '@contract/pageState';
import { renderApp } from './helpers/renderApp';
import { preloadOpeningPage } from '../../src/App';
import { aClient, CLIENTS } from './helpers/clientData';
import { fakeClientProfileServer } from '../support/clientProfileMsw';

const page = (clients: Client[], extra: Partial<ClientListPage> = {}): ClientListPage => ({
  clients,
  total: clients.length,
  total_is_estimate: false,
  page: 1,
  perPage: 25,
  next_cursor: null,
  ...extra,
});

/** Answers every list call with `answer(listId, search)` and records the calls. */
function listServer(answer: (listId: string, search: URLSearchParams) => object | Promise<object>, status = 200) {
  const calls: { listId: string; search: URLSearchParams }[] = [];
  server.use(
    signedIn(),
    http.get('*/api/client/v1/clients/:listId', async ({ request, params }) => {
      const search = new URL(request.url).searchParams;
      calls.push({ listId: String(params.listId), search });
      return HttpResponse.json(await answer(String(params.listId), search), { status });
    }),
  );
  return calls;
}

const rows = () => screen.getAllByRole('row').slice(1);
// Column 0 of the table is the row's selection box (bulk actions): the spec's columns start at 1.
const cellTexts = (column: number) => rows().map((row) => within(row).getAllByRole('cell')[column + 1]!.textContent);

// Whole-console renders in jsdom take seconds each on a busy machine.
describe('client lists', () => {
  it('shows a spinner while loading, then the columns, rows and the New badge', async () => {
    const release = deferred();
    listServer(async () => {
      await release.promise;
      return page(CLIENTS);
    });
    renderApp('/clients/all');

    expect(await screen.findByRole('progressbar', { name: 'Loading clients' })).toBeVisible();
    release.resolve();

    await screen.findByText('Ann');
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(['', 'New', 'First Name', 'Last Name', 'Email', 'VOD ACCESS LEVEL', 'Status']);
    expect(cellTexts(0)).toEqual(['New', '', '']);
    expect(cellTexts(1)).toEqual(['Ann', 'bob', 'Cat']);
    expect(cellTexts(3)).toEqual(['ann@studio.test', 'bob@studio.test', 'cat@elsewhere.test']);
    expect(cellTexts(4)).toEqual(['VOD | PREMIUM', 'VOD | BASIC', 'VOD | FREE']);
    expect(cellTexts(5)).toEqual(['Active', 'Pending', 'Expired']);
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it.each([
    ['/clients/all', '1', 'Clients - All'],
    ['/clients/mindbody', '2', 'Clients - MindBody'],
    ['/clients/active', '3', 'Clients - Active'],
    ['/clients/new', '4', 'Clients - New'],
  ])('%s asks list %s for its first page and is titled %s', async (path, listId, title) => {
    const calls = listServer(() => page(CLIENTS));
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeVisible();
    await screen.findByText('Ann');
    expect(calls[0]!.listId).toBe(listId);
    expect(Object.fromEntries(calls[0]!.search)).toEqual({ page: '1', perPage: '25', sort: '_id', order: 'ASC' });
  });

  it("says 'No Clients to Show' when the list is empty", async () => {
    listServer(() => page([]));
    renderApp('/clients/new');
    expect(await screen.findByText('No Clients to Show')).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('opened from a Revenue figure, says which in words, and the chip removes it; the clients can be broadcast to', async () => {
    const calls = listServer(() => page(CLIENTS));
    const filter = { revenue_figure: 'churned', revenue_from: '2026-10-01', revenue_to: '2026-11-01' };
    const { user } = renderApp(`/clients/all?filter=${encodeURIComponent(JSON.stringify(filter))}`);
    const chip = await screen.findByRole('button', { name: /Revenue figure: Churned in October 2026/ });
    expect(chip).toHaveTextContent('Churned in October 2026');
    expect(calls.at(-1)!.search.get('revenue_figure')).toBe('churned');
    expect(calls.at(-1)!.search.get('revenue_from')).toBe('2026-10-01');
    expect(screen.getByRole('button', { name: 'Broadcast' })).toBeEnabled();

    await user.click(within(chip).getByTitle('Remove the filter “Churned in October 2026”'));
    await waitFor(() => expect(calls.at(-1)!.search.get('revenue_figure')).toBeNull());
    expect(calls.at(-1)!.search.get('revenue_from')).toBeNull();
    expect(screen.queryByText('Churned in October 2026')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Broadcast' })).toBeNull();
  });

  it('opens the client when a row is clicked', async () => {
    listServer(() => page(CLIENTS));
    // The client page's every section answers: it starts loading them as soon as it opens, and the test
    // ends only once it shows the client.
    server.use(
      ...fakeClientProfileServer({ client: CLIENTS[1]! }).handlers,
      http.get('*/api/admin/v1/clients/:id/timeline', () => HttpResponse.json({ entries: [], next: null })),
    );
    const { user } = renderApp('/clients/all');
    await user.click(await screen.findByText('bob'));
    await waitFor(() => expect(window.location.pathname).toBe('/client/12'));
    const details = await screen.findByLabelText('Client Details');
    await within(details).findByText('bob@studio.test');
    // Its last section to load, so no call is still on its way when the test ends.
    await screen.findByText('No automated messages yet.');
  });

  it('sorts on the server when a column header is clicked', async () => {
    const calls = listServer(() => page(CLIENTS));
    const { user } = renderApp('/clients/all');
    await screen.findByText('Ann');
    await user.click(screen.getByRole('button', { name: /last name/i }));
    await waitFor(() => expect(calls.at(-1)!.search.get('sort')).toBe('last_name'));
    expect(calls.at(-1)!.search.get('order')).toBe('ASC');
    await user.click(screen.getByRole('button', { name: /vod access level/i }));
    await waitFor(() => expect(calls.at(-1)!.search.get('sort')).toBe('vod_access_level'));
  });

  it('sends the quick filter as q', async () => {
    const calls = listServer((_, search) => page(search.get('q') === 'zeta' ? [CLIENTS[0]!] : CLIENTS));
    const { user } = renderApp('/clients/all');
    await screen.findByText('bob');
    // The filter form comes just after the rows (its own chunk).
    await user.type(await screen.findByRole('textbox', { name: 'Search by name or e-mail' }), 'zeta');
    await waitFor(() => expect(screen.queryByText('bob')).toBeNull());
    expect(calls.at(-1)!.search.get('q')).toBe('zeta');
    expect(screen.getByText('Ann')).toBeVisible();
  });

  it("says 'about' for an estimated total and follows the server's cursor to the next page", async () => {
    const many = Array.from({ length: 25 }, (_, i) => aClient({ _id: 100 + i, first_name: `First${i}` }));
    const calls = listServer((_, search) =>
      search.get('after') === 'cursor-2'
        ? page([aClient({ _id: 500, first_name: 'Second page' })], { total: 1_000_000, total_is_estimate: true, page: 2 })
        : page(many, { total: 1_000_000, total_is_estimate: true, next_cursor: 'cursor-2' }),
    );
    const { user } = renderApp('/clients/all');
    expect(await screen.findByText('1-25 of about 1,000,000')).toBeVisible();
    // No numbered pages into an estimate: first, previous, next and last only.
    expect(screen.queryByRole('button', { name: 'Go to page 2' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Go to first page' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Go to previous page' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));

    expect(await screen.findByText('Second page')).toBeVisible();
    expect(Object.fromEntries(calls.at(-1)!.search)).toMatchObject({ page: '2', perPage: '25', after: 'cursor-2' });
  });

  it('pages, sorts and filters in the browser when the server answers the whole list', async () => {
    const all = Array.from({ length: 30 }, (_, i) =>
      aClient({ _id: i + 1, first_name: `F${String(i + 1).padStart(2, '0')}`, last_name: `L${String(30 - i).padStart(2, '0')}` }),
    );
    listServer(() => ({ clients: all }));
    const { user } = renderApp('/clients/all');

    expect(await screen.findByText('1-25 of 30')).toBeVisible();
    expect(rows()).toHaveLength(25);
    expect(cellTexts(1)[0]).toBe('F01');

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(cellTexts(1)).toEqual(['F26', 'F27', 'F28', 'F29', 'F30']);

    await user.click(screen.getByRole('button', { name: /last name/i }));
    await waitFor(() => expect(cellTexts(2)[0]).toBe('L01'));

    await user.type(screen.getByRole('textbox', { name: 'Search by name or e-mail' }), 'f07');
    // Typing into the whole console re-renders its filter form per key: slow in jsdom on a busy machine.
    await waitFor(() => expect(cellTexts(1)).toEqual(['F07']));
  });

  it("shows react-admin's error state when the list cannot be loaded", async () => {
    listServer(() => ({ message: 'Internal server error' }), 500);
    renderApp('/clients/active');
    expect(await screen.findByText('Something went wrong')).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: 'Clients - Active' })).toBeVisible();
  });
});

// On a cold load the list's first page is asked for beside the page's code, and the
// page takes that answer instead of asking again (its parameters must be the page's own defaults).
describe('a client list the console opens on', () => {
  /** The session state our server puts into the console page (server/src/routes/console.ts). */
  const pageSays = (answer: IsAuthenticatedResponse) => {
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = SESSION_STATE_ELEMENT_ID;
    element.textContent = JSON.stringify(answer);
    document.head.append(element);
  };
  afterEach(() => document.getElementById(SESSION_STATE_ELEMENT_ID)?.remove());
  const opening = async (url: string) => {
    window.history.pushState(null, '', url);
    await preloadOpeningPage(new URL(url, window.location.origin).pathname);
  };

  it('asks for its first page before rendering, once, and shows that answer', async () => {
    const calls = listServer(() => page(CLIENTS));
    pageSays({ isAuthenticated: true, user: { ...testUser, role: 'front_desk', permissions: ['clients.read'] } });
    await opening('/clients/all');
    await waitFor(() => expect(calls).toHaveLength(1));

    renderApp('/clients/all');
    expect(await screen.findByText('ann@studio.test')).toBeInTheDocument();
    expect(calls.map(({ listId, search }) => `${listId}?${search}`)).toEqual(['1?page=1&perPage=25&sort=_id&order=ASC']);
  });

  it('renders once its first page is here, so the rows come with the first render; a slow answer is not waited for', async () => {
    const held = deferred();
    const calls = listServer(async () => {
      await held.promise;
      return page(CLIENTS);
    });
    pageSays({ isAuthenticated: true, user: testUser });
    // Lists no other test here opens early: an answer kept fresh from one would be used instead.
    window.history.pushState(null, '', '/clients/new');
    let ready = false;
    const opened = preloadOpeningPage('/clients/new', 60_000).then(() => (ready = true));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(ready).toBe(false);
    held.resolve();
    await opened;

    document.getElementById(SESSION_STATE_ELEMENT_ID)!.remove();
    const stuck = deferred();
    listServer(() => stuck.promise.then(() => page(CLIENTS)));
    pageSays({ isAuthenticated: true, user: testUser });
    // Settles on its timer while the answer is still held: waiting for the answer would hang here.
    await expect(preloadOpeningPage('/clients/active', 0)).resolves.toBeUndefined();
    stuck.resolve();
  });

  it('asks nothing early for a list opened with its own parameters, for a role without client lists, or signed out', async () => {
    const calls = listServer(() => page(CLIENTS));
    pageSays({ isAuthenticated: true, user: testUser });
    await opening('/clients/all?page=2&perPage=10');
    document.getElementById(SESSION_STATE_ELEMENT_ID)!.remove();

    pageSays({ isAuthenticated: true, user: { ...testUser, role: 'content', permissions: ['videos.edit', 'signed_in'] } });
    await opening('/clients/active');
    document.getElementById(SESSION_STATE_ELEMENT_ID)!.remove();

    pageSays({ isAuthenticated: false, user: null });
    await opening('/clients/new');
    expect(calls).toHaveLength(0);
  });
});
