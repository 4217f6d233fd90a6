import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Client, Contract, DebugRecord, OptionVideo, Purchase, RecentlyViewedVideo } from '@contract/clients';
import { dashboardCalls, server, signedIn } from '../support/msw';
import { fakeAutomationServer } from '../support/automationMsw';
import { renderApp } from './helpers/renderApp';
import { aClient } from './helpers/clientData';

interface Sections {
  contracts?: Contract[];
  videos?: RecentlyViewedVideo[];
  favorites?: OptionVideo[];
  purchases?: Purchase[];
  debug?: DebugRecord[];
}

const contract = (overrides: Partial<Contract> = {}): Contract => ({
  agreement_date: '2026-01-05T00:00:00.000Z',
  autopay_status: 'Active',
  contract_name: 'Unlimited Monthly',
  end_date: '2027-01-05T00:00:00.000Z',
  id: 5001,
  original_location_id: 1,
  start_date: '2026-01-05T00:00:00.000Z',
  site_id: -99,
  upcoming_autopay_events: [
    { ChargeAmount: 129, ScheduleDate: '2026-12-01T00:00:00' },
    { ChargeAmount: 129.5, ScheduleDate: '2027-01-01T00:00:00' },
    { ChargeAmount: 59, ScheduleDate: '2027-02-01T00:00:00' },
    { ChargeAmount: 99, ScheduleDate: '2027-03-01T00:00:00' },
  ],
  contract_id: 101,
  termination_date: null,
  ...overrides,
});

const debugRecord: DebugRecord = {
  email: 'kim.park@studio.test',
  mb_client_id: '100777',
  app_access_level: 'VOD | BASIC',
  firebase_token_new: 'token-new-1',
  firebase_token_current: 'token-current-1',
  platform: 'ios',
  platform_version: '18.1',
  is_ipad: true,
  screen_width: 1179,
  screen_height: 2556,
  device_width: 393,
  device_height: 852,
  ip: '203.0.113.7',
  app_version: '3.4.1',
  sent_at: '2026-11-21T12:00:00.000Z',
  device_constants: { deviceName: 'iPhone 15' },
  network_info: { type: 'wifi', isConnected: true },
};

const FULL: Required<Sections> = {
  contracts: [
    contract(),
    contract({
      id: 5002,
      contract_name: '10 Class Pack',
      autopay_status: 'Inactive',
      termination_date: '2025-06-15T00:00:00.000Z',
      upcoming_autopay_events: [],
    }),
  ],
  videos: [{ vimeo_video_title: 'Sunrise Yoga', viewed_at: '2026-11-21T09:30:00.000Z' }],
  favorites: [
    { vimeo_video_id: '9002', title: 'HIIT Blast', instructor: null, duration: 45 },
    { vimeo_video_id: '9001', title: 'Sunrise Yoga', instructor: 'Mara', duration: 1500 },
  ],
  purchases: [
    {
      revenue_cat_user_id: 'rc_kim',
      name: 'VOD | PREMIUM',
      subscription_identifier: 'vod_premium_monthly',
      upsell_source: 'onboarding',
      purchased_at: '2026-11-01T00:00:00.000Z',
      expires_at: '2026-12-01T00:00:00.000Z',
      subscription_status: 'active',
      environment: 'PRODUCTION',
    },
    {
      revenue_cat_user_id: 'rc_kim',
      name: 'VOD | PREMIUM',
      subscription_identifier: 'vod_premium_monthly',
      upsell_source: null,
      purchased_at: '2026-10-01T00:00:00.000Z',
      expires_at: '2026-10-08T00:00:00.000Z',
      subscription_status: 'expired',
      environment: 'SANDBOX',
    },
  ],
  debug: [debugRecord],
};

/** Serves one client and its sections; `fail` makes those calls answer 500. Returns the requests seen. */
function clientServer(clients: Client[], sections: Sections = FULL, fail: (keyof Sections)[] = []) {
  const seen: { url: URL; body?: unknown }[] = [];
  const answer = (key: keyof Sections, body: object) =>
    fail.includes(key) ? HttpResponse.json({ message: 'boom' }, { status: 500 }) : HttpResponse.json(body);
  server.use(
    signedIn(),
    ...fakeAutomationServer().handlers,
    http.get('*/api/client/v1/client-details/:siteId/:mbClientId/contracts', ({ request }) => {
      seen.push({ url: new URL(request.url) });
      return answer('contracts', { errors: [], contracts: sections.contracts ?? [] });
    }),
    http.get('*/api/client/v1/client-details/:siteId/:mbClientId/purchases', ({ request }) => {
      seen.push({ url: new URL(request.url) });
      return answer('purchases', { errors: [], purchases: sections.purchases ?? [] });
    }),
    http.get('*/api/client/v1/client-details/:siteId/:mbClientId/:email/debug', ({ request }) => {
      seen.push({ url: new URL(request.url) });
      return answer('debug', { debugInfo: sections.debug ?? [] });
    }),
    http.get('*/api/client/v1/client-details/:id', ({ params }) => {
      const client = clients.find((c) => String(c._id) === params.id);
      return client ? HttpResponse.json({ client: [client] }) : HttpResponse.json({ message: `No client with id ${params.id}` }, { status: 404 });
    }),
    http.post('*/api/client/v1/client-details/recently-viewed-videos', async ({ request }) => {
      seen.push({ url: new URL(request.url), body: await request.json() });
      return answer('videos', { videos: sections.videos ?? [] });
    }),
    http.post('*/api/client/v1/client-details/favorites-videos', async ({ request }) => {
      seen.push({ url: new URL(request.url), body: await request.json() });
      return answer('favorites', { videos: sections.favorites ?? [] });
    }),
    http.get('*/api/admin/v1/pushes', () => HttpResponse.json([], { headers: { 'content-range': 'pushes */0' } })),
    // The History section (docs/features.md); tests/console/client-history.test.tsx covers it.
    http.get('*/api/admin/v1/audit', () => HttpResponse.json([], { headers: { 'content-range': 'audit */0' } })),
  );
  return seen;
}

const section = (title: string) => screen.getByRole('region', { name: title });
const open = async (user: ReturnType<typeof renderApp>['user'], toggle: string) => {
  await user.click(screen.getByRole('button', { name: toggle }));
};
const headers = (region: HTMLElement) =>
  within(region)
    .getAllByRole('columnheader')
    .map((cell) => cell.textContent);
const firstRow = (region: HTMLElement) =>
  within(within(region).getAllByRole('row')[1]!)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

const kim = aClient({ _id: 7, admin_updated_expiration: '2026-12-01T15:00:00.000Z' });

// Whole-console renders in jsdom take seconds each on a busy machine.
describe('client details', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the header, the summary box, the override note and Log Out', async () => {
    clientServer([kim]);
    renderApp('/client/7');
    expect(await screen.findByRole('heading', { level: 1, name: 'Client Details' })).toBeVisible();
    const summary = await screen.findByLabelText('Client Details');
    // The box can be drawn before the client's record is in it (a busy machine): wait for the record.
    await within(summary).findByText('Kim');
    expect(screen.getByRole('button', { name: 'Back' })).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Send a push notification to client' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Update VOD Access Level' })).toBeVisible();
    const field = (key: string) => summary.querySelector(`[data-field="${key}"]`)!.textContent;
    expect([field('first_name'), field('last_name'), field('mb_client_id'), field('email'), field('vod_access_level')]).toEqual([
      'Kim',
      'Park',
      '100777',
      'kim.park@studio.test',
      'VOD | BASIC',
    ]);
    expect(within(summary).getByRole('note')).toHaveTextContent(/^Admin granted this Access Level until Dec 1, 2026/);
    expect(within(summary).getByRole('link', { name: 'Log Out' })).toHaveAttribute('href', '/logout');
  });

  it('keeps its header, and the focus on Back, while the client loads (nothing is redrawn under the keyboard)', async () => {
    clientServer([kim]);
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get('*/api/client/v1/client-details/:id', async () => {
        await answered;
        return HttpResponse.json({ client: [kim] });
      }),
    );
    renderApp('/client/7');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Client Details' });
    expect(await screen.findByRole('progressbar', { name: 'Loading' })).toBeVisible();
    const back = screen.getByRole('button', { name: 'Back' });
    back.focus();
    answer();
    await within(await screen.findByLabelText('Client Details')).findByText('Kim');
    expect(heading).toBeVisible();
    expect(screen.getByRole('button', { name: 'Back' })).toBe(back);
    expect(back).toHaveFocus();
  });

  it('shows UNKNOWN for missing values and N/A for a short or missing MindBody id, and no note without an override', async () => {
    clientServer([aClient({ _id: 8, last_name: null, email_address: '', name: null, mb_client_id: '42' }), aClient({ _id: 9, mb_client_id: null })]);
    renderApp('/client/8');
    const summary = await screen.findByLabelText('Client Details');
    await within(summary).findByText('Kim');
    const field = (key: string) => summary.querySelector(`[data-field="${key}"]`)!.textContent;
    expect([field('last_name'), field('mb_client_id'), field('email'), field('vod_access_level')]).toEqual(['UNKNOWN', 'N/A', 'UNKNOWN', 'UNKNOWN']);
    expect(within(summary).queryByRole('note')).toBeNull();
  });

  it('asks each section for this client by e-mail, MindBody id and site (debug: page 1, limit 10)', async () => {
    const seen = clientServer([kim]);
    renderApp('/client/7');
    await waitFor(() => expect(seen).toHaveLength(5));
    const paths = seen.map(({ url }) => `${url.pathname}${url.search}`).sort();
    expect(paths).toEqual([
      '/api/client/v1/client-details/-99/100777/contracts',
      '/api/client/v1/client-details/-99/100777/kim.park%40studio.test/debug?page=1&limit=10',
      '/api/client/v1/client-details/-99/100777/purchases?email=kim.park%40studio.test',
      '/api/client/v1/client-details/favorites-videos',
      '/api/client/v1/client-details/recently-viewed-videos',
    ]);
    expect(seen.filter((call) => call.body).map((call) => call.body)).toEqual([
      { email: 'kim.park@studio.test', mb_client_id: '100777' },
      { email: 'kim.park@studio.test', mb_client_id: '100777' },
    ]);
  });

  it('keeps the five sections closed until their toggle flips View to Hide, and back', async () => {
    clientServer([kim]);
    const { user } = renderApp('/client/7');
    await screen.findByLabelText('Client Details');
    const toggles = ['View Contracts', 'View Recent Streamed Videos', 'View Favorites Videos', 'View Purchase History', 'View User Debug Info'];
    for (const name of toggles) expect(screen.getByRole('button', { name })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('button', { name: 'View Recent Streamed Videos' })).toHaveTextContent(/^View$/);

    await open(user, 'View Contracts');
    expect(screen.getByRole('button', { name: 'Hide Contracts' })).toHaveAttribute('aria-expanded', 'true');
    await open(user, 'View Purchase History');
    expect(screen.getByRole('button', { name: 'Hide Purchase History' })).toHaveTextContent(/^Hide$/);
    await open(user, 'Hide Contracts');
    expect(screen.getByRole('button', { name: 'View Contracts' })).toHaveAttribute('aria-expanded', 'false');
    const body = section('Purchase History').querySelector('[data-testid="section-body"]') as HTMLElement;
    expect(body).toHaveStyle({ maxHeight: '400px', overflow: 'auto' });
  });

  it('shows the contracts with dates cut to 10 characters, N/A and the first three autopay dates', async () => {
    clientServer([kim]);
    const { user } = renderApp('/client/7');
    await screen.findByLabelText('Client Details');
    await open(user, 'View Contracts');
    const region = section('MindBody Contracts');
    expect(within(region).getByRole('button', { name: 'Sync Contracts' })).toBeVisible();
    await within(region).findByText('Unlimited Monthly');
    expect(headers(region)).toEqual(['Status', 'Contract Name', 'Contract Date', 'Termination Date', 'Upcoming AutoPay Dates']);
    expect(firstRow(region)).toEqual([
      'Active',
      'Unlimited Monthly',
      // Mindbody's days in the console's one date format (the spec cut them to 10 characters).
      'Jan 5, 2026 - Jan 5, 2027',
      'N/A',
      '$129 on Dec 1, 2026$129.50 on Jan 1, 2027$59 on Feb 1, 2027',
    ]);
    expect(within(region).getByText('Jun 15, 2025')).toBeVisible();
  });

  it('shows recent videos, favorites with Remove and lengths, purchases and debug records', async () => {
    clientServer([kim]);
    const { user } = renderApp('/client/7');
    await screen.findByLabelText('Client Details');
    for (const toggle of ['View Recent Streamed Videos', 'View Favorites Videos', 'View Purchase History', 'View User Debug Info']) await open(user, toggle);

    const videos = section('Recent Streamed Videos');
    await within(videos).findByText('Sunrise Yoga');
    expect(headers(videos)).toEqual(['Video Title', 'Vewied On']);
    expect(firstRow(videos)[1]).toMatch(/^Nov 21, 2026/);

    const favorites = section('Favorites Videos');
    await within(favorites).findByText('HIIT Blast');
    expect(headers(favorites)).toEqual(['Remove', 'Video Title', 'Instructor', 'Length']);
    expect(firstRow(favorites)).toEqual(['Remove', 'HIIT Blast', '', '< 1 MINUTE(S)']);
    expect(
      within(within(favorites).getAllByRole('row')[2]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Remove', 'Sunrise Yoga', 'Mara', '25 MINUTE(S)']);
    expect(within(favorites).getAllByRole('button', { name: /^Remove / })).toHaveLength(2);
    expect(within(favorites).getByRole('button', { name: 'Add a Video' })).toBeVisible();

    const purchases = section('Purchase History');
    await within(purchases).findByText('onboarding');
    expect(headers(purchases)).toEqual([
      'Revenue Cat User Id',
      'Access Level Purchased',
      'Subscription Identifier',
      'Upsell Source',
      'Purchased At',
      'Expires At',
      'Status',
    ]);
    expect(firstRow(purchases).slice(0, 4)).toEqual(['rc_kim', 'VOD | PREMIUM', 'vod_premium_monthly', 'onboarding']);
    expect(firstRow(purchases)[6]).toBe('active');
    // A purchase from RevenueCat's SANDBOX environment (TestFlight) is listed, marked as such.
    expect(
      within(within(purchases).getAllByRole('row')[2]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent)[6],
    ).toBe('expired · Sandbox');

    const debug = section('User Debug Info');
    const record = await within(debug).findByTestId('debug-record');
    for (const text of ['token-new-1', 'token-current-1', 'ios', '18.1', 'Yes', '1179 x 2556', '393 x 852', '203.0.113.7', '3.4.1']) {
      expect(within(record).getByText(text)).toBeVisible();
    }
    expect(within(record).getByText(/"deviceName": "iPhone 15"/)).toBeVisible();
    expect(within(record).getByText(/"isConnected": true/)).toBeVisible();
  });

  it('shows each empty state', async () => {
    clientServer([kim], {});
    const { user } = renderApp('/client/7');
    await screen.findByLabelText('Client Details');
    for (const toggle of ['View Contracts', 'View Recent Streamed Videos', 'View Favorites Videos', 'View Purchase History', 'View User Debug Info'])
      await open(user, toggle);
    expect(await within(section('MindBody Contracts')).findByText('No contracts were found.')).toBeVisible();
    expect(await within(section('Recent Streamed Videos')).findByText('No videos were found.')).toBeVisible();
    expect(within(section('Recent Streamed Videos')).getByText('The couch is winning this round.')).toBeVisible();
    expect(await within(section('Favorites Videos')).findByText('No records were found.')).toBeVisible();
    expect(await within(section('Purchase History')).findByText('No purchases were found.')).toBeVisible();
    expect(await within(section('User Debug Info')).findByText('No debug info was found.')).toBeVisible();
  });

  it('says which section failed to load, with a Retry that loads it again, instead of its empty text', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failing: (keyof Sections)[] = ['purchases', 'contracts', 'debug', 'favorites', 'videos'];
    clientServer([kim], FULL, failing);
    const { user } = renderApp('/client/7');
    await screen.findByLabelText('Client Details');
    for (const toggle of ['View Contracts', 'View Recent Streamed Videos', 'View Favorites Videos', 'View Purchase History', 'View User Debug Info'])
      await open(user, toggle);
    const titles = ['MindBody Contracts', 'Recent Streamed Videos', 'Favorites Videos', 'Purchase History', 'User Debug Info'];
    for (const title of titles) {
      const region = section(title);
      expect(await within(region).findByRole('alert')).toHaveTextContent(`${title} could not be loaded`);
      expect(within(region).getByRole('button', { name: `Retry ${title}` })).toBeVisible();
    }
    for (const empty of [
      'No contracts were found.',
      'No videos were found.',
      'No records were found.',
      'No purchases were found.',
      'No debug info was found.',
    ]) {
      expect(screen.queryByText(empty)).toBeNull();
    }
    // These failures are logged too.
    for (const name of ['purchases', 'contracts', 'debug']) {
      expect(logged.mock.calls.some(([message]) => String(message).includes(`client's ${name} failed`))).toBe(true);
    }

    failing.length = 0;
    await user.click(within(section('Purchase History')).getByRole('button', { name: 'Retry Purchase History' }));
    expect(await within(section('Purchase History')).findByText('onboarding')).toBeVisible();
    expect(within(section('Purchase History')).queryByRole('alert')).toBeNull();
    // The other sections keep saying they failed until their own Retry.
    expect(within(section('MindBody Contracts')).getByRole('alert')).toBeVisible();
    await user.click(within(section('MindBody Contracts')).getByRole('button', { name: 'Retry MindBody Contracts' }));
    expect(await within(section('MindBody Contracts')).findByText('Unlimited Monthly')).toBeVisible();
  });

  it("shows react-admin's error state, not a blank page, for an unknown client", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    clientServer([]);
    renderApp('/client/404');
    expect(await screen.findByText('Something went wrong')).toBeVisible();
    expect(screen.getByText('No client with id 404')).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: 'Client Details' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Back' })).toBeVisible();
  });

  it('reloads everything when the id in the route changes', async () => {
    const seen = clientServer([kim, aClient({ _id: 8, first_name: 'Lee', email_address: 'lee@studio.test', mb_client_id: '100888' })]);
    const { user } = renderApp('/client/7');
    await screen.findByText('Kim');
    await open(user, 'View Contracts');
    window.history.pushState(null, '', '/client/8');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(await screen.findByText('Lee')).toBeVisible();
    await waitFor(() => expect(seen.some(({ url }) => url.pathname.includes('/100888/contracts'))).toBe(true));
    expect(screen.getByRole('button', { name: 'View Contracts' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('goes one step back with Back', async () => {
    clientServer([kim]);
    server.use(http.get('*/api/client/v1/clients/:listId', () => HttpResponse.json({ clients: [kim] })));
    const { user } = renderApp('/clients/all');
    await user.click(await screen.findByText('kim.park@studio.test'));
    await screen.findByLabelText('Client Details');
    expect(window.location.pathname).toBe('/client/7');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(window.location.pathname).toBe('/clients/all'));
  });

  it('goes to the client list with Back when the page was opened directly (no page of ours to go back to)', async () => {
    clientServer([kim]);
    server.use(http.get('*/api/client/v1/clients/:listId', () => HttpResponse.json({ clients: [kim] })));
    const before = window.history.length;
    const { user } = renderApp('/client/7');
    await screen.findByLabelText('Client Details');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(window.location.pathname).toBe('/clients/all'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Clients - All' })).toBeVisible();
    // A new entry, not a step back out of the console.
    expect(window.history.length).toBeGreaterThan(before);
  });

  it('goes to the root with Back when opened from customer search', async () => {
    clientServer([kim]);
    server.use(...dashboardCalls());
    const { user } = renderApp('/client/7?search=customers');
    await screen.findByLabelText('Client Details');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  });
  it('lists the automated messages the client got, skipped ones with why, and sets the opt-out', async () => {
    clientServer([kim]);
    const fake = fakeAutomationServer({
      client: {
        opted_out: false,
        pushes: [
          {
            id: 2,
            message_type: 5,
            msg_type_title: 'Cancelled Class',
            status: 'skipped',
            skip_reason: 'daily_cap',
            title: 'Class cancelled',
            message: 'Sorry Kim.',
            planned_for: '2026-11-21T12:30:00.000Z',
            sent_at: null,
            last_error: null,
          },
          {
            id: 1,
            message_type: 1,
            msg_type_title: 'High Five',
            status: 'sent',
            skip_reason: null,
            title: 'High five, Kim!',
            message: 'Great work in Spin.',
            planned_for: '2026-11-21T11:00:00.000Z',
            sent_at: '2026-11-21T11:00:00.000Z',
            last_error: null,
          },
        ],
      },
    });
    server.use(
      ...fake.handlers,
      http.get('*/api/admin/v1/pushes', () =>
        HttpResponse.json(
          [
            {
              id: 5,
              client_id: 7,
              sent_by: 'automated',
              source: 'high-fives',
              title: 'High five, Kim!',
              body: 'Great work in Spin.',
              status: 'sent',
              reason: null,
              results: [],
              created_at: '2026-11-21T11:00:00.000Z',
            },
          ],
          { headers: { 'content-range': 'pushes 0-0/1' } },
        ),
      ),
    );
    const { user } = renderApp('/client/7');
    await screen.findByLabelText('Client Details');
    // The delivered one is in Recent Push Notifications too, named by its type.
    await open(user, 'View Recent Push Notifications');
    const recent = section('Recent Push Notifications');
    expect(await within(recent).findByText('Automated · High Five')).toBeVisible();
    await open(user, 'View Automated Messages');
    const automated = section('Automated Messages');
    await within(automated).findByText('High five, Kim!');
    expect(headers(automated)).toEqual(['When', 'Type', 'Message', 'Status']);
    expect(firstRow(automated).slice(1)).toEqual(['Cancelled Class', 'Class cancelled Sorry Kim.', 'Skipped: daily limit reached']);
    const optOut = within(automated).getByRole('switch', { name: 'Opted out of automated messages' });
    expect(optOut).not.toBeChecked();
    await user.click(optOut);
    await waitFor(() => expect(optOut).toBeChecked());
    expect(fake.calls.filter((c) => c.method === 'PUT')).toEqual([{ method: 'PUT', path: 'client/7', body: { opted_out: true } }]);
  });
});
