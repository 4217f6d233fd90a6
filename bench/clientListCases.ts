/**
 * The client-list cases of the benchmark (docs/features.md#clients): first pages, pages deep in a
 * large list by cursor and its last pages on every sortable column, a page by number refused,
 * filtered first pages, and every page by number of a list narrowed below 10,000 clients.
 */
import type { LatencyCase, StaffApi } from './clients-latency';
import { segmentCases } from './segmentCases';

const SORTS = ['_id', 'first_name', 'last_name', 'email_address', 'vod_access_level', 'client_status', 'first_login'] as const;
const SORT_NAMES: Record<(typeof SORTS)[number], string> = {
  _id: 'id',
  first_name: 'first name',
  last_name: 'last name',
  email_address: 'e-mail',
  vod_access_level: 'access level',
  client_status: 'status',
  first_login: 'first login',
};
const PER_PAGE = 25;
const BUDGET = 50;
/** A filter keeping about 2 % of the demo clients: walking it 500 at a time crosses ~25,000 clients a page. */
const STRIDE_FILTER = 'status=Declined&vod_access_level=2&mindbody=true';

interface Page {
  total: number;
  next_cursor: string | null;
  clients: unknown[];
}

const list = (api: StaffApi, path: string) => () => api.get(`/api/client/v1/clients/${path}`);

/** Succeeds only on the 400 a page by number into a large list gets. */
const refused = (api: StaffApi, path: string) => async () => {
  try {
    await api.get(`/api/client/v1/clients/${path}`);
  } catch (error) {
    if (/(→|answered) 400/.test((error as Error).message)) return;
    throw error;
  }
  throw new Error(`${path} was answered, not refused`);
};

/**
 * A cursor about half-way down list 1 in one sort, reached as the console would reach page
 * 20,000 (along cursors) but in long strides: the cursors of a sparse filter are positions in the
 * whole list too, so each 500-row page of it moves ~25,000 clients down the unfiltered order.
 */
async function halfWayCursor(api: StaffApi, sort: string, total: number) {
  const path = `/api/client/v1/clients/1?sort=${sort}&${STRIDE_FILTER}`;
  const { total: matching } = await api.get<Page>(`${path}&perPage=1`);
  // About 20 strides to the middle, at most 500 clients (one page) each.
  const stride = Math.min(500, Math.max(5, Math.round(matching / 40)));
  let page = await api.get<Page>(`${path}&perPage=${stride}`);
  for (let walked = stride; walked < matching / 2 && page.next_cursor; walked += stride) {
    page = await api.get<Page>(`${path}&perPage=${stride}&after=${encodeURIComponent(page.next_cursor)}`);
  }
  if (!page.next_cursor) throw new Error(`no cursor half-way down list 1 by ${sort} (${total} clients)`);
  return page.next_cursor;
}

export async function clientListCases(api: StaffApi): Promise<LatencyCase[]> {
  const first = await api.get<Page>(`/api/client/v1/clients/1?page=1&perPage=${PER_PAGE}`);
  const total = first.total;
  // Half-way down, from the total rounded to two figures: page 20,000 of a million on either database
  // (their estimates differ a little).
  const rounded = Number(total.toPrecision(2));
  const middlePage = Math.max(2, Math.round(rounded / 2 / PER_PAGE));
  const cases: LatencyCase[] = [
    { name: 'list 1 (all), first page', targetP95: BUDGET, run: list(api, `1?page=1&perPage=${PER_PAGE}`) },
    { name: 'list 2 (MindBody), first page', targetP95: BUDGET, run: list(api, `2?page=1&perPage=${PER_PAGE}`) },
    { name: 'list 3 (active), first page', targetP95: BUDGET, run: list(api, `3?page=1&perPage=${PER_PAGE}`) },
    { name: 'list 4 (new), first page', targetP95: BUDGET, run: list(api, `4?page=1&perPage=${PER_PAGE}`) },
    { name: 'list 3 sorted by first name', targetP95: BUDGET, run: list(api, `3?page=1&perPage=${PER_PAGE}&sort=first_name&order=ASC`) },
    { name: 'list 4 sorted by status', targetP95: BUDGET, run: list(api, `4?page=1&perPage=${PER_PAGE}&sort=client_status&order=ASC`) },
  ];
  for (const sort of SORTS) {
    const after = await halfWayCursor(api, sort, total);
    cases.push({
      name: `list 1 by ${SORT_NAMES[sort]}: page ${middlePage.toLocaleString('en-US')} (cursor)`,
      targetP95: BUDGET,
      run: list(api, `1?page=${middlePage}&perPage=${PER_PAGE}&sort=${sort}&after=${encodeURIComponent(after)}`),
    });
    cases.push({
      name: `list 1 by ${SORT_NAMES[sort]}: last page (first of the other order)`,
      targetP95: BUDGET,
      run: list(api, `1?page=1&perPage=${PER_PAGE}&sort=${sort}&order=DESC`),
    });
  }
  cases.push({
    name: `list 1 by last name: page ${middlePage.toLocaleString('en-US')} by number, refused (400)`,
    targetP95: BUDGET,
    run: refused(api, `1?page=${middlePage}&perPage=${PER_PAGE}&sort=last_name`),
  });
  const filtered: Array<[string, string]> = [
    ['status Suspended', 'status=Suspended'],
    ['level BASIC', 'vod_access_level=2'],
    ['new', 'new=true'],
    ['not linked to MindBody', 'mindbody=false'],
    ['override running', 'override_running=true'],
    ['override ending within 7 days', 'override_ends_within_days=7'],
    ['status Declined + level BASIC, by last name', 'status=Declined&vod_access_level=2&sort=last_name'],
    ['status Pending + override running, by e-mail', 'status=Pending&override_running=true&sort=email_address'],
    ['4 filters (~200 clients), by last name', 'status=Declined&vod_access_level=2&new=true&mindbody=false&sort=last_name'],
    ["quick search 'smith' + status Active, by last name", 'q=smith&status=Active&sort=last_name'],
    ["quick search 'smith' (common)", 'q=smith'],
    ["quick search 'olivia.smith1' (rare)", 'q=olivia.smith1'],
  ];
  for (const [name, query] of filtered) {
    cases.push({ name: `filtered first page: ${name}`, targetP95: BUDGET, run: list(api, `1?page=1&perPage=${PER_PAGE}&${query}`) });
  }
  // A list narrowed below 10,000 clients is paged by number to its end (~1,800 of a million).
  const narrow = 'status=Suspended&vod_access_level=3&new=true&sort=last_name';
  const narrowTotal = (await api.get<Page>(`/api/client/v1/clients/1?page=1&perPage=${PER_PAGE}&${narrow}`)).total;
  const lastNarrowPage = Math.max(1, Math.ceil(narrowTotal / PER_PAGE));
  cases.push({
    name: 'filtered list under 10,000 (status Suspended + level PREMIUM + new, by last name): last page by number',
    targetP95: BUDGET,
    run: list(api, `1?page=${lastNarrowPage}&perPage=${PER_PAGE}&${narrow}`),
  });
  cases.push(...segmentCases(api));
  return cases;
}
