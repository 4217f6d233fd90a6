import { describe, expect, it } from 'vitest';
import type { Client, ClientListPage } from '@contract/clients';
import { clientsData } from '../../src/clients/clientsData';
import { clientsCsv } from '../../src/clients/clientsExporter';
import { csvField } from '@contract/csv';
import { CursorBook, clientFilterOf, pageInBrowser, pageSearch } from '../../src/common/listPaging';
import type { HttpClient, HttpResponse } from '../../src/providers/http';
import { aClient } from './helpers/clientData';

/** An HttpClient answering from a function of the path, recording every path asked for. */
function fakeHttp(answer: (path: string) => unknown) {
  const paths: string[] = [];
  const http: HttpClient = async (path) => {
    paths.push(path);
    return { status: 200, headers: new Headers(), body: '', json: answer(path) } as HttpResponse;
  };
  return { http, paths };
}

const query = (path: string) => Object.fromEntries(new URL(path, 'http://x').searchParams);
const clients = (from: number, count: number) => Array.from({ length: count }, (_, i) => aClient({ _id: from + i, first_name: `C${from + i}` }));
const page = (rows: Client[], extra: Partial<ClientListPage> = {}): ClientListPage => ({
  clients: rows,
  total: 2000,
  total_is_estimate: false,
  page: 1,
  perPage: rows.length,
  next_cursor: null,
  ...extra,
});

describe('client list paging', () => {
  it('asks for page, capped perPage, the API sort field and a trimmed filter', () => {
    expect(Object.fromEntries(pageSearch({ page: 3, perPage: 1000, sort: { field: 'id', order: 'DESC' }, filter: { q: '  kim ' } }))).toEqual({
      page: '3',
      perPage: '500',
      sort: '_id',
      order: 'DESC',
      q: 'kim',
    });
    expect(pageSearch({ page: 1, perPage: 25, sort: { field: 'password', order: 'asc' } }, 'c1').toString()).toBe(
      'page=1&perPage=25&sort=_id&order=ASC&after=c1',
    );
  });

  it('remembers the cursor of the next page per list, sort, filter and page size', () => {
    const book = new CursorBook();
    const request = { page: 1, perPage: 25, sort: { field: 'last_name', order: 'ASC' } };
    book.setNext(1, request, 'after-page-1');
    expect(book.get(1, { ...request, page: 2 })).toBe('after-page-1');
    expect(book.get(2, { ...request, page: 2 })).toBeUndefined();
    expect(book.get(1, { ...request, page: 2, filter: { q: 'kim' } })).toBeUndefined();
    expect(book.get(1, { ...request, page: 2, perPage: 50 })).toBeUndefined();
    expect(book.get(1, { ...request, page: 2, sort: { field: 'last_name', order: 'DESC' } })).toBeUndefined();
  });

  it('sorts case-insensitively with missing values first, filters and slices in the browser', () => {
    const all = [
      aClient({ _id: 1, last_name: 'zeta', first_login: null }),
      aClient({ _id: 2, last_name: 'Alpha', email_address: 'x@kim.test' }),
      aClient({ _id: 3, last_name: null }),
      aClient({ _id: 4, last_name: 'beta' }),
    ];
    const sorted = pageInBrowser(all, { page: 1, perPage: 3, sort: { field: 'last_name', order: 'ASC' } });
    expect(sorted.data.map((c) => c._id)).toEqual([3, 2, 4]);
    expect(sorted.total).toBe(4);
    expect(pageInBrowser(all, { page: 2, perPage: 3, sort: { field: 'last_name', order: 'ASC' } }).data.map((c) => c._id)).toEqual([1]);
    expect(pageInBrowser(all, { page: 1, perPage: 3, sort: { field: 'first_login', order: 'DESC' } }).data.map((c) => c._id)).toEqual([4, 3, 2]);
    expect(pageInBrowser(all, { page: 1, perPage: 25, sort: { field: 'id', order: 'ASC' }, filter: { q: 'KIM.TEST' } })).toEqual({ data: [all[1]], total: 1 });
  });
});

describe('client list filters in the console', () => {
  it('sends every part of the filter as query parameters, lists as repeated parameters', () => {
    const search = pageSearch({
      page: 1,
      perPage: 25,
      sort: { field: 'id', order: 'ASC' },
      filter: {
        q: 'kim',
        status: ['Active', 'Non-Member'],
        vod_access_level: [0, 3],
        new: false,
        mindbody: true,
        override_running: true,
        override_ends_within_days: 7,
      },
    });
    expect(search.toString()).toBe(
      'page=1&perPage=25&sort=_id&order=ASC&q=kim&status=Active&status=Non-Member&vod_access_level=0&vod_access_level=3&new=false&mindbody=true&override_running=true&override_ends_within_days=7',
    );
  });

  it("reads react-admin's filter values from the URL, leaving out what is not a valid value", () => {
    expect(
      clientFilterOf({
        q: ' kim ',
        status: 'Active',
        vod_access_level: ['2', 3],
        new: 'true',
        mindbody: false,
        override_running: 'false',
        override_ends_within_days: '14',
      }),
    ).toEqual({
      q: 'kim',
      status: ['Active'],
      vod_access_level: [2, 3],
      new: true,
      mindbody: false,
      override_running: false,
      override_ends_within_days: 14,
    });
    expect(
      clientFilterOf({ q: '  ', status: [1, ''], vod_access_level: ['x', -1, 1.5], new: 'yes', mindbody: null, override_ends_within_days: 29, other: 'x' }),
    ).toEqual({});
    expect(clientFilterOf(undefined)).toEqual({});
  });

  it('filters a whole list in the browser the way the server does', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const all = [
      aClient({ _id: 1, client_status: 'Active', vod_access_level: 3, first_login: '2026-11-01T00:00:00.000Z', mb_client_id: '100001' }),
      aClient({ _id: 2, client_status: 'Pending', vod_access_level: null, first_login: null, mb_client_id: '12' }),
      aClient({ _id: 3, client_status: 'Expired', vod_access_level: 1, admin_updated_expiration: '2026-11-25T00:00:00.000Z' }),
    ];
    const ids = (filter: Parameters<typeof clientFilterOf>[0]) =>
      pageInBrowser(all, { page: 1, perPage: 25, sort: { field: 'id', order: 'ASC' }, filter: clientFilterOf(filter) }, now).data.map((c) => c._id);
    expect(ids({ status: ['Pending', 'Expired'] })).toEqual([2, 3]);
    expect(ids({ vod_access_level: [0] })).toEqual([2]);
    expect(ids({ new: true })).toEqual([1]);
    expect(ids({ mindbody: false })).toEqual([2]);
    expect(ids({ override_running: true })).toEqual([3]);
    expect(ids({ override_ends_within_days: 1 })).toEqual([]);
  });
});

describe('clientsData', () => {
  it("steps to the next page after the server's cursor, and falls back to the page number without one", async () => {
    const { http, paths } = fakeHttp((path) => page(clients(1, 25), { next_cursor: `cursor-after-${query(path).page}` }));
    const data = clientsData(http);
    const getList = data.resources['clients-all']!.getList!;
    const params = (p: number) => ({ pagination: { page: p, perPage: 25 }, sort: { field: 'last_name', order: 'ASC' as const }, filter: {} });
    await getList('clients-all', params(1));
    await getList('clients-all', params(2));
    await getList('clients-all', params(5));
    expect(paths.map(query)).toEqual([
      { page: '1', perPage: '25', sort: 'last_name', order: 'ASC' },
      { page: '2', perPage: '25', sort: 'last_name', order: 'ASC', after: 'cursor-after-1' },
      { page: '5', perPage: '25', sort: 'last_name', order: 'ASC' },
    ]);
  });

  it('never asks a large list for a page by number: only along its cursors', async () => {
    const { http, paths } = fakeHttp((path) =>
      page(clients(1, 25), { total: 1_000_000, total_is_estimate: true, page: Number(query(path).page), next_cursor: `after-${query(path).page}` }),
    );
    const getList = clientsData(http).resources['clients-all']!.getList!;
    const params = (p: number) => ({ pagination: { page: p, perPage: 25 }, sort: { field: 'last_name', order: 'ASC' as const }, filter: {} });
    // Page 3 of a list not seen yet (a reloaded URL): its first page says it is large, so page 3 is
    // not asked for and react-admin goes back to page 1 on the empty answer.
    expect(await getList('clients-all', params(3))).toMatchObject({ data: [], meta: { unreachable: true } });
    expect(paths.map(query).map((q) => [q.page, q.after])).toEqual([['1', undefined]]);
    await getList('clients-all', params(2));
    await getList('clients-all', params(3));
    expect(
      paths
        .map(query)
        .map((q) => [q.page, q.after])
        .slice(1),
    ).toEqual([
      ['2', 'after-1'],
      ['3', 'after-2'],
    ]);
  });

  it('asks a list of at most 10,000 for any page by number, learning its size from its first page', async () => {
    const { http, paths } = fakeHttp((path) => page(clients(1, 25), { total: 9_000, page: Number(query(path).page), next_cursor: 'c' }));
    const getList = clientsData(http).resources['clients-all']!.getList!;
    await getList('clients-all', { pagination: { page: 300, perPage: 25 }, sort: { field: 'id', order: 'ASC' }, filter: { status: ['Active'] } });
    expect(paths.map(query).map((q) => [q.page, q.after, q.status])).toEqual([
      ['1', undefined, 'Active'],
      ['300', undefined, 'Active'],
    ]);
  });

  it('reads the end of a list as the start of the other order, rows put back in order', async () => {
    const { http, paths } = fakeHttp((path) =>
      query(path).after === 'back-1'
        ? page(clients(951, 25).reverse(), { total: 1_000_000, total_is_estimate: true, page: 2, next_cursor: null })
        : page(clients(976, 25).reverse(), { total: 1_000_000, total_is_estimate: true, next_cursor: 'back-1' }),
    );
    const getList = clientsData(http).resources['clients-all']!.getList!;
    const params = (fromEnd: number) => ({
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'email_address', order: 'DESC' as const },
      filter: { status: 'Active' },
      meta: { fromEnd },
    });
    const last = await getList('clients-all', params(1));
    expect(last.data.map((c: Client) => c._id)).toEqual(clients(976, 25).map((c) => c._id));
    expect(last.meta).toEqual({ total_is_estimate: true, paged_in_browser: false, from_end: 1, has_next: false, has_previous: true });
    const before = await getList('clients-all', params(2));
    expect(before.meta).toMatchObject({ from_end: 2, has_next: true, has_previous: false });
    expect(paths.map(query)).toEqual([
      { page: '1', perPage: '25', sort: 'email_address', order: 'ASC', status: 'Active' },
      { page: '2', perPage: '25', sort: 'email_address', order: 'ASC', status: 'Active', after: 'back-1' },
    ]);
  });

  it('answers the total and whether it is an estimate, and maps _id to id', async () => {
    const { http } = fakeHttp(() => page(clients(1, 2), { total: 1_000_000, total_is_estimate: true }));
    const result = await clientsData(http).resources['clients-new']!.getList!('clients-new', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(result.total).toBe(1_000_000);
    expect(result.meta).toEqual({ total_is_estimate: true, paged_in_browser: false, has_next: false, has_previous: false });
    expect(result.data[0]).toMatchObject({ id: 1, _id: 1 });
  });

  it('gathers an export larger than one server page along the cursors', async () => {
    const { http, paths } = fakeHttp((path) => {
      const q = query(path);
      if (!q.after) return page(clients(1, 500), { next_cursor: 'c500' });
      if (q.after === 'c500') return page(clients(501, 500), { page: 2, next_cursor: 'c1000' });
      return page(clients(1001, 200), { page: 3, next_cursor: null });
    });
    const result = await clientsData(http).resources['clients-active']!.getList!('clients-active', {
      pagination: { page: 1, perPage: 1100 },
      sort: { field: 'id', order: 'ASC' },
      filter: { q: 'kim' },
    });
    expect(result.data).toHaveLength(1100);
    expect(result.data.at(-1)!._id).toBe(1100);
    expect(paths.map((path) => [new URL(path, 'http://x').pathname, query(path).after, query(path).q])).toEqual([
      ['/api/client/v1/clients/3', undefined, 'kim'],
      ['/api/client/v1/clients/3', 'c500', 'kim'],
      ['/api/client/v1/clients/3', 'c1000', 'kim'],
    ]);
    // Each page says it is an export: a large one needs a recent re-authentication.
    expect(paths.map((path) => query(path).export)).toEqual(['true', 'true', 'true']);
  });

  it('does not mark a list page as an export', async () => {
    const { http, paths } = fakeHttp(() => page(clients(1, 25), { next_cursor: 'c25' }));
    await clientsData(http).resources['clients-active']!.getList!('clients-active', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(paths.map((path) => query(path).export)).toEqual([undefined]);
  });

  it('pages in the browser when the server ignores the parameters (no total in the answer)', async () => {
    const { http } = fakeHttp(() => ({ clients: clients(1, 30) }));
    const result = await clientsData(http).resources['clients-mindbody']!.getList!('clients-mindbody', {
      pagination: { page: 2, perPage: 25 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(result.total).toBe(30);
    expect(result.data.map((c: Client) => c._id)).toEqual([26, 27, 28, 29, 30]);
    expect(result.meta).toEqual({ total_is_estimate: false, paged_in_browser: true, has_next: false, has_previous: true });
  });

  it("reads one client from client[0], and says 'not found' for an empty answer", async () => {
    const { http, paths } = fakeHttp((path) => ({ client: path.endsWith('/7') ? [aClient({ _id: 7 })] : [] }));
    const getOne = clientsData(http).resources.clients.getOne!;
    expect((await getOne('clients', { id: 7 })).data).toMatchObject({ id: 7, first_name: 'Kim' });
    await expect(getOne('clients', { id: 8 })).rejects.toMatchObject({ status: 404 });
    expect(paths).toEqual(['/api/client/v1/client-details/7', '/api/client/v1/client-details/8']);
  });

  it("puts a client's missing values into the section paths as 'null'", async () => {
    const { http, paths } = fakeHttp(() => ({ debugInfo: [], contracts: [], purchases: [] }));
    const { methods } = clientsData(http);
    const client = { email_address: '', mb_client_id: null, mb_site_id: null };
    await methods.getClientDebugInfo(client);
    await methods.getClientContracts(client);
    await methods.getClientPurchases(client);
    expect(paths).toEqual([
      '/api/client/v1/client-details/null/null/null/debug?page=1&limit=10',
      '/api/client/v1/client-details/null/null/contracts',
      '/api/client/v1/client-details/null/null/purchases?email=',
    ]);
  });
});

describe('CSV export', () => {
  it('writes a header and one line per client with the New flag and the level name', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const csv = clientsCsv([{ ...aClient({ _id: 7, first_login: '2026-11-20T00:00:00.000Z', last_name: 'Park, Jr.' }), id: 7 }], now);
    const [header, line] = csv.split('\r\n');
    expect(header).toBe(
      'id,new,first_name,last_name,email_address,vod_access_level,client_status,mb_client_id,mb_site_id,first_login,admin_updated_expiration',
    );
    expect(line).toBe('7,yes,Kim,"Park, Jr.",kim.park@studio.test,VOD | BASIC,Active,100777,-99,2026-11-20T00:00:00.000Z,');
  });

  it('quotes quotes and line breaks, and keeps spreadsheets from running a value as a formula', () => {
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField(-99)).toBe('-99');
  });

  it('keeps a name that is a plain negative number as it is, and defuses one that is a formula', () => {
    const csv = clientsCsv([{ ...aClient({ _id: 8, first_name: '-5', last_name: '=1+1' }), id: 8 }], new Date('2026-11-22T12:00:00Z'));
    expect(csv.split('\r\n')[1]).toMatch(/^8,no,-5,'=1\+1,/);
  });
});

describe('client action calls', () => {
  function recordingHttp(json: unknown) {
    const calls: { path: string; method?: string; body?: unknown; key?: string | null }[] = [];
    const http: HttpClient = async (path, options = {}) => {
      calls.push({
        path,
        method: options.method,
        body: typeof options.body === 'string' ? JSON.parse(options.body) : undefined,
        key: options.headers instanceof Headers ? options.headers.get('Idempotency-Key') : null,
      });
      return { status: 200, headers: new Headers(), body: '', json } as HttpResponse;
    };
    return { http, calls };
  }
  const kim = aClient({ _id: 7 });

  it('sends the spec bodies of the favorites, level and push calls', async () => {
    const { http, calls } = recordingHttp({ errors: [] });
    const { methods } = clientsData(http);
    await methods.updateClientFavorite(kim, '9001', 'remove');
    await methods.updateClientAccessLevel({ client_id: 7, new_vod_access_level: 3, adminOverrideDate: '2026-11-29T12:00:00.000Z' });
    await methods.pushNotification(kim, { title: 'Hi', body: 'There' }, 'key-12345678');
    expect(calls).toEqual([
      {
        path: '/api/client/v1/client-details/favorites-videos-update',
        method: 'POST',
        body: { vimeo_video_id: '9001', email_address: 'kim.park@studio.test', mb_client_id: '100777', video_category_id: 30, update_type: 'remove' },
        key: null,
      },
      {
        path: '/api/client/v1/client-details/update-access-level',
        method: 'POST',
        body: { client_id: 7, new_vod_access_level: 3, adminOverrideDate: '2026-11-29T12:00:00.000Z' },
        key: null,
      },
      {
        path: '/api/client/v1/client-details/push-notification',
        method: 'POST',
        body: { notification: { title: 'Hi', body: 'There' }, mb_client_id: '100777', email_address: 'kim.park@studio.test' },
        key: 'key-12345678',
      },
    ]);
  });

  it("syncs by site and MindBody id, and asks for the client's ten newest pushes", async () => {
    const { http, calls } = recordingHttp([]);
    const { methods } = clientsData(http);
    await methods.syncClientContracts(aClient({ mb_site_id: null, mb_client_id: '100777' }));
    await methods.getClientPushes(7);
    expect(calls[0]!.path).toBe('/api/v1/sync/contracts/null/100777');
    expect(calls[1]!.path.split('?')[0]).toBe('/api/admin/v1/pushes');
    expect(query(calls[1]!.path)).toEqual({ filter: '{"client_id":7}', range: '[0,9]' });
  });
});
