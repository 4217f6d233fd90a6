import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Client, ClientListPage } from '@contract/clients';
import { server, signedIn } from '../support/msw';
import { fakeClientProfileServer } from '../support/clientProfileMsw';
import { renderApp } from './helpers/renderApp';
import { aClient, CLIENTS } from './helpers/clientData';

const page = (clients: Client[], extra: Partial<ClientListPage> = {}): ClientListPage => ({
  clients,
  total: clients.length,
  total_is_estimate: false,
  page: 1,
  perPage: 25,
  next_cursor: null,
  ...extra,
});

function listServer(answer: (search: URLSearchParams) => object = () => page(CLIENTS)) {
  const calls: URLSearchParams[] = [];
  server.use(
    signedIn(),
    http.get('*/api/client/v1/clients/:listId', ({ request }) => {
      const search = new URL(request.url).searchParams;
      calls.push(search);
      return HttpResponse.json(answer(search));
    }),
  );
  return calls;
}

/** The list's filter as react-admin keeps it in the URL. */
const filterInUrl = () => JSON.parse(new URLSearchParams(window.location.search).get('filter') ?? '{}');
const listUrl = (filter: object) =>
  `/clients/all?${new URLSearchParams({ filter: JSON.stringify(filter), page: '1', perPage: '25', sort: 'id', order: 'ASC' })}`;

async function choose(user: ReturnType<typeof renderApp>['user'], filter: string, option: string) {
  await user.click(await screen.findByRole('combobox', { name: filter }));
  await user.click(await screen.findByRole('option', { name: option }));
  await user.keyboard('{Escape}');
}

describe('client list filters, paging from either end, keyboard and phone', () => {
  afterEach(() => {
    window.innerWidth = 1024;
  });

  it('sends each filter with the quick search to the server and keeps them in the URL', async () => {
    const calls = listServer();
    const { user } = renderApp('/clients/all');
    await screen.findByText('Ann');

    await choose(user, 'Status', 'Expired');
    await waitFor(() => expect(calls.at(-1)!.getAll('status')).toEqual(['Expired']));
    await choose(user, 'VOD Access Level', 'No level');
    await choose(user, 'MindBody', 'Not linked');
    await choose(user, 'Override', 'Running');
    await choose(user, 'Override ends within', '7 days');
    await choose(user, 'New', 'New');
    await user.type(await screen.findByRole('textbox', { name: 'Search by name or e-mail' }), 'kim');

    await waitFor(() => expect(calls.at(-1)!.get('q')).toBe('kim'));
    const last = calls.at(-1)!;
    expect([
      last.getAll('status'),
      last.getAll('vod_access_level'),
      last.get('mindbody'),
      last.get('override_running'),
      last.get('override_ends_within_days'),
      last.get('new'),
    ]).toEqual([['Expired'], ['0'], 'false', 'true', '7', 'true']);
    expect(filterInUrl()).toEqual({
      status: ['Expired'],
      vod_access_level: [0],
      mindbody: false,
      override_running: true,
      override_ends_within_days: 7,
      new: true,
      q: 'kim',
    });
  });

  it('opens with the filters of its URL, shown in the filter form and sent to the server', async () => {
    const calls = listServer();
    renderApp(listUrl({ q: 'ann', status: ['Suspended', 'Pending'], vod_access_level: [3], new: false, override_running: false }));
    await screen.findByText('Ann');
    expect(Object.fromEntries(calls[0]!)).toMatchObject({ q: 'ann', vod_access_level: '3', new: 'false', override_running: 'false' });
    expect(calls[0]!.getAll('status')).toEqual(['Suspended', 'Pending']);
    // The filter form comes just after the rows (its own chunk).
    expect(await screen.findByRole('textbox', { name: 'Search by name or e-mail' })).toHaveValue('ann');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveTextContent(/Suspended.*Pending/);
    expect(screen.getByRole('combobox', { name: 'New' })).toHaveTextContent('Not new');
  });

  it.each([
    ['/clients/active', 'Status'],
    ['/clients/new', 'New'],
    ['/clients/mindbody', 'MindBody'],
  ])('%s does not offer the %s filter its own rule fixes', async (path, fixed) => {
    listServer();
    renderApp(path);
    await screen.findByText('Ann');
    // The filter form comes just after the rows (its own chunk): once it is there, without that filter.
    expect(await screen.findByRole('combobox', { name: 'Override' })).toBeVisible();
    expect(screen.queryByRole('combobox', { name: fixed })).toBeNull();
  });

  it('reads the last pages of a large list as the first pages of the other order, and goes back to the first', async () => {
    const rows = (from: number) => Array.from({ length: 25 }, (_, i) => aClient({ _id: from + i, first_name: `Row${from + i}` }));
    const estimate = { total: 1_000_000, total_is_estimate: true };
    const calls = listServer((search) => {
      if (search.get('order') === 'ASC') return page(rows(1), { ...estimate, next_cursor: 'forward-2' });
      const start = search.get('page') === '1' ? 999_976 : 999_951;
      return page(rows(start).reverse(), { ...estimate, page: Number(search.get('page')), next_cursor: `back-${search.get('page')}` });
    });
    const { user } = renderApp('/clients/all');
    expect(await screen.findByText('1-25 of about 1,000,000')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Go to last page' }));
    expect(await screen.findByText('1-25 from the end of about 1,000,000')).toBeVisible();
    expect(Object.fromEntries(calls.at(-1)!)).toEqual({ page: '1', perPage: '25', sort: '_id', order: 'DESC' });
    // Shown in the list's order: the very last row last.
    expect(screen.getAllByRole('row').at(-1)).toHaveTextContent('Row1000000');
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Go to previous page' }));
    expect(await screen.findByText('26-50 from the end of about 1,000,000')).toBeVisible();
    expect(Object.fromEntries(calls.at(-1)!)).toEqual({ page: '2', perPage: '25', sort: '_id', order: 'DESC', after: 'back-1' });

    await user.click(screen.getByRole('button', { name: 'Go to first page' }));
    expect(await screen.findByText('1-25 of about 1,000,000')).toBeVisible();
    expect(calls.at(-1)!.get('order')).toBe('ASC');
  });

  it('never asks for a page number deeper than the server serves: a deep URL without its cursor opens page 1', async () => {
    const rows = Array.from({ length: 25 }, (_, i) => aClient({ _id: i + 1, first_name: `Row${i + 1}` }));
    const calls = listServer(() => page(rows, { total: 1_000_000, total_is_estimate: true, next_cursor: 'c' }));
    renderApp('/clients/all?page=500&perPage=25&sort=id&order=ASC&filter=%7B%7D');
    // The empty answer first, then react-admin's move to page 1 and its request.
    await screen.findByText('Row1', {}, { timeout: 30_000 });
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('page')).toBe('1'));
    expect(calls.map((search) => search.get('page'))).not.toContain('500');
  });

  it('lets Tab reach each row and Enter open its client', async () => {
    listServer();
    // Enter opens the client's page, whose sections load at once when its code is already there.
    server.use(...fakeClientProfileServer({ client: CLIENTS[1]! }).handlers);
    const { user } = renderApp('/clients/all');
    await screen.findByText('bob');
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => row.getAttribute('tabindex'))).toEqual(['0', '0', '0']);
    rows[0]!.focus();
    // The row's selection box (bulk actions) comes first, then the next row.
    await user.tab();
    expect(within(rows[0]!).getByRole('checkbox')).toHaveFocus();
    await user.tab();
    expect(rows[1]).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname).toBe('/client/12'));
  });

  it('shows a compact card list on a phone, with sorting, export, and Enter to open', async () => {
    window.innerWidth = 390;
    listServer();
    server.use(...fakeClientProfileServer({ client: CLIENTS[2]! }).handlers);
    const { user } = renderApp('/clients/all');
    const card = await screen.findByRole('link', { name: /Cat Xu/ });
    expect(screen.queryByRole('table')).toBeNull();
    expect(within(card).getByText('cat@elsewhere.test')).toBeVisible();
    expect(within(card).getByText('VOD | FREE · Expired')).toBeVisible();
    expect(within(screen.getByRole('link', { name: /Ann Zeta/ })).getByText('New')).toBeVisible();
    expect(screen.getByRole('checkbox', { name: 'Select Cat Xu' })).not.toBeChecked();
    expect(await screen.findByRole('button', { name: /Sort/ })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Export' })).toBeVisible();
    expect(screen.queryByRole('combobox', { name: 'Rows per page:' })).toBeNull();

    card.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(window.location.pathname).toBe('/client/13'));
  });
});
