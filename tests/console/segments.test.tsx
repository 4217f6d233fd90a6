import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ClientListPage } from '@contract/clients';
import type { AtRiskPage, Segment } from '@contract/segments';
import { server, signedIn } from '../support/msw';
import { renderApp } from './helpers/renderApp';
import { aClient, CLIENTS } from './helpers/clientData';

const segment = (overrides: Partial<Segment> = {}): Segment => ({
  id: 7,
  name: 'Came lately',
  filter: { last_class_days: 30 },
  count: 2,
  count_is_estimate: false,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
  ...overrides,
});
const page = (clients = CLIENTS): ClientListPage => ({ clients, total: clients.length, total_is_estimate: false, page: 1, perPage: 25, next_cursor: null });

/** The backend of these tests: saved segments, the client list, the preview and the at-risk list. */
function segmentServer(saved: Segment[] = [segment()]) {
  const calls = { list: [] as URLSearchParams[], created: [] as unknown[], previews: [] as unknown[] };
  server.use(
    signedIn(),
    http.get('*/api/admin/v1/segments', () => HttpResponse.json(saved, { headers: { 'content-range': `segments 0-${saved.length - 1}/${saved.length}` } })),
    http.get('*/api/admin/v1/segments/:id', ({ params }) => {
      const found = saved.find((item) => item.id === Number(params.id));
      return found ? HttpResponse.json(found) : HttpResponse.json({ message: 'No segment' }, { status: 404 });
    }),
    http.post('*/api/admin/v1/segments/preview', async ({ request }) => {
      calls.previews.push(await request.json());
      return HttpResponse.json({ count: 2, count_is_estimate: false, sample: CLIENTS.slice(0, 2) });
    }),
    http.post('*/api/admin/v1/segments', async ({ request }) => {
      const body = (await request.json()) as Pick<Segment, 'name' | 'filter'>;
      calls.created.push(body);
      const created = segment({ id: 8, ...body });
      saved.push(created);
      return HttpResponse.json(created);
    }),
    http.get('*/api/client/v1/clients/:listId', ({ request }) => {
      calls.list.push(new URL(request.url).searchParams);
      return HttpResponse.json(page());
    }),
    http.get('*/api/admin/v1/mindbody/sync', () => HttpResponse.json({ status: 'never', site_ids: [], sandbox: true })),
  );
  return calls;
}

describe('segments and the at-risk list', () => {
  it('lists saved segments under Clients with their count, and opens one as a client list with its filter', async () => {
    const calls = segmentServer();
    const { user } = renderApp('/clients/all');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await within(nav).findByRole('link', { name: 'Came lately (2)' });
    expect(within(nav).getByRole('link', { name: 'At risk' })).toBeTruthy();
    await user.click(within(nav).getByRole('link', { name: 'Came lately (2)' }));
    await screen.findByRole('heading', { level: 1, name: 'Came lately' });
    await waitFor(() => expect(calls.list.at(-1)?.get('last_class_days')).toBe('30'));
    expect(await screen.findByText('Ann')).toBeTruthy();
  });

  it('deletes a segment from its page after a confirmation', async () => {
    segmentServer();
    const deleted: string[] = [];
    server.use(
      http.delete('*/api/admin/v1/segments/:id', ({ params }) => {
        deleted.push(String(params.id));
        return HttpResponse.json(segment());
      }),
    );
    const { user } = renderApp('/segments/7');
    await user.click(await screen.findByRole('button', { name: 'Delete segment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the segment Came lately?' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(deleted).toEqual(['7']));
    await waitFor(() => expect(window.location.pathname).toBe('/clients/all'));
  });

  it('builds a filter, previews its count, saves it and opens it', async () => {
    const calls = segmentServer();
    const { user } = renderApp('/segments/new');
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Recent classes');
    await user.type(screen.getByRole('spinbutton', { name: 'A class within the last … days' }), '30');
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByText('2 clients match')).toBeTruthy();
    expect(calls.previews).toEqual([{ filter: { last_class_days: 30 } }]);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.created).toEqual([{ name: 'Recent classes', filter: { last_class_days: 30 } }]));
    await screen.findByRole('heading', { level: 1, name: 'Recent classes' });
    expect(window.location.pathname).toBe('/segments/8');
  });

  it("saves the clients behind a Revenue figure, opened from that list's 'Save as segment', with the figure in its filter", async () => {
    const calls = segmentServer();
    const figure = { revenue_figure: 'churned', revenue_from: '2026-10-01', revenue_to: '2026-11-01' };
    const { user } = renderApp(`/segments/new?source=${encodeURIComponent(JSON.stringify({ filter: figure }))}`);
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'Churned in October');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.created).toEqual([{ name: 'Churned in October', filter: figure }]));
  });

  it('shows the at-risk clients with their last contact, and pushes to one with a tap', async () => {
    segmentServer();
    const atRisk: AtRiskPage = {
      clients: [
        {
          ...aClient({ _id: 21, first_name: 'Paid', last_name: 'One' }),
          paid: true,
          active_contract: true,
          last_active_at: '2026-11-01T10:00:00.000Z',
          last_contacted_at: null,
          reachable: false,
          unreachable_reason: 'tokens_dead',
        },
        {
          ...aClient({ _id: 22, first_name: 'Free', last_name: 'Two' }),
          paid: false,
          active_contract: false,
          last_active_at: '2026-10-25T10:00:00.000Z',
          last_contacted_at: '2026-11-20T08:00:00.000Z',
          reachable: true,
          unreachable_reason: null,
        },
      ],
      total: 2,
      total_is_estimate: false,
      page: 1,
      perPage: 25,
      active_days: 60,
      quiet_days: 14,
      filter: { last_activity_days: 74, no_class_days: 14, no_stream_days: 14 },
    };
    const pushes: unknown[] = [];
    server.use(
      http.get('*/api/admin/v1/at-risk', () => HttpResponse.json(atRisk)),
      http.post('*/api/client/v1/client-details/push-notification', async ({ request }) => {
        pushes.push(await request.json());
        return HttpResponse.json({ updated: true, push_id: 5, results: [] });
      }),
      http.get('*/api/admin/v1/pushes', () => HttpResponse.json([])),
    );
    const { user } = renderApp('/segments/at-risk');
    const table = await screen.findByRole('table', { name: 'At risk' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Paid OneRunning contractNever contacted',
      'Free TwoContacted Nov 20, 2026',
    ]);
    expect(within(rows[0]!).getByText('Never')).toBeTruthy();
    // The console's one date format (common/format.ts), not the API's ISO text.
    expect(within(rows[1]!).getByText('Nov 20, 2026')).toBeTruthy();
    // No push is offered where none can arrive; the row says why.
    expect(within(rows[0]!).queryByRole('button', { name: 'Push to Paid One' })).toBeNull();
    expect(within(rows[0]!).getByText('No push: the app was removed or signed out')).toBeTruthy();
    await user.click(within(rows[1]!).getByRole('button', { name: 'Push to Free Two' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'We miss you');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(pushes).toEqual([expect.objectContaining({ notification: { title: '', body: 'We miss you' }, email_address: 'kim.park@studio.test' })]),
    );
  });

  it("says 'about' when the at-risk total is an estimate, and pages on", async () => {
    segmentServer();
    const asked: string[] = [];
    server.use(
      http.get('*/api/admin/v1/at-risk', ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        asked.push(new URL(request.url).search);
        const clients = Array.from({ length: 25 }, (_, i) => ({
          ...aClient({ _id: page * 100 + i, first_name: `Client${page}-${i}`, last_name: 'X' }),
          paid: false,
          active_contract: false,
          last_active_at: '2026-11-01T10:00:00.000Z',
          last_contacted_at: null,
          reachable: true,
          unreachable_reason: null,
        }));
        return HttpResponse.json({
          clients,
          total: 123456,
          total_is_estimate: true,
          page,
          perPage: 25,
          active_days: 60,
          quiet_days: 14,
          filter: { last_activity_days: 74, no_class_days: 14, no_stream_days: 14 },
        } satisfies AtRiskPage);
      }),
    );
    const { user } = renderApp('/segments/at-risk');
    expect(await screen.findByText('1-25 of about 123,456')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /next page/i }));
    expect(await screen.findByText('26-50 of about 123,456')).toBeTruthy();
    expect(asked).toEqual(['?page=1&perPage=25', '?page=2&perPage=25']);
  });

  const oneAtRisk = (overrides: Partial<AtRiskPage['clients'][number]> = {}): AtRiskPage => ({
    clients: [
      {
        ...aClient({ _id: 22, first_name: 'Free', last_name: 'Two' }),
        paid: false,
        active_contract: false,
        last_active_at: '2026-10-25T10:00:00.000Z',
        last_contacted_at: null,
        reachable: true,
        unreachable_reason: null,
        ...overrides,
      },
    ],
    total: 1,
    total_is_estimate: false,
    page: 1,
    perPage: 25,
    active_days: 60,
    quiet_days: 14,
    filter: { last_activity_days: 74, no_class_days: 14, no_stream_days: 14, snoozed: false },
  });

  it("broadcasting to the at-risk list names its size as the estimate it is (~) beyond the lists' exact count", async () => {
    segmentServer();
    server.use(http.get('*/api/admin/v1/at-risk', () => HttpResponse.json({ ...oneAtRisk(), total: 24_402, total_is_estimate: true })));
    const { user } = renderApp('/segments/at-risk');
    await user.click(await screen.findByRole('button', { name: 'Broadcast' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Broadcast to ~24,402 clients')).toBeTruthy();
  });

  it('keeps the typed push when the send fails, and moves last contacted only once a push went out', async () => {
    segmentServer();
    let contacted: string | null = null;
    let fail = true;
    server.use(
      http.get('*/api/admin/v1/at-risk', () => HttpResponse.json(oneAtRisk({ last_contacted_at: contacted }))),
      http.post('*/api/client/v1/client-details/push-notification', () => {
        if (fail) return HttpResponse.json({ message: 'FCM is unavailable right now after repeated failures; retry in 30 s.' }, { status: 503 });
        contacted = '2026-11-21T09:00:00.000Z';
        return HttpResponse.json({ updated: true, push_id: 6, results: [] });
      }),
      http.get('*/api/admin/v1/pushes', () => HttpResponse.json([])),
    );
    const { user } = renderApp('/segments/at-risk');
    const table = await screen.findByRole('table', { name: 'At risk' });
    const row = () => within(table).getAllByRole('row')[1]!;
    await user.click(within(row()).getByRole('button', { name: 'Push to Free Two' }));
    let dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'We miss you');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 30_000 });
    expect(within(row()).getByText('Never')).toBeTruthy();
    // Reopened: the text is still there to send again.
    await user.click(within(row()).getByRole('button', { name: 'Push to Free Two' }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('textbox', { name: 'Message' })).toHaveValue('We miss you');
    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(within(row()).getByText('Nov 21, 2026')).toBeTruthy(), { timeout: 30_000 });
  });

  it('logs a call and snoozes a client from the list, keeping the note when a save fails', async () => {
    segmentServer();
    const saved: { path: string; body: unknown }[] = [];
    let failNext = true;
    server.use(
      http.get('*/api/admin/v1/at-risk', () => HttpResponse.json(oneAtRisk())),
      http.post('*/api/admin/v1/clients/:id/:what', async ({ request, params }) => {
        if (failNext) {
          failNext = false;
          return HttpResponse.json({ message: 'The server is restarting' }, { status: 503 });
        }
        const body = await request.json();
        saved.push({ path: `${String(params.id)}/${String(params.what)}`, body });
        const snooze = params.what === 'snooze';
        return HttpResponse.json({
          id: saved.length,
          client_id: 22,
          kind: snooze ? 'snoozed' : 'called',
          note: null,
          snoozed_until: snooze ? '2026-11-29T12:00:00.000Z' : null,
          staff_email: 'coach@studio.test',
          created_at: '2026-11-22T12:00:00.000Z',
        });
      }),
    );
    const { user } = renderApp('/segments/at-risk');
    const table = await screen.findByRole('table', { name: 'At risk' });
    await user.click(within(table).getByRole('button', { name: 'Log contact with Free Two' }));
    let dialog = await screen.findByRole('dialog', { name: 'Log a contact with Free Two' });
    await user.click(within(dialog).getByRole('radio', { name: 'Left a message' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Note (optional)' }), 'Asked about the new timetable');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Not saved: The server is restarting');
    expect(within(dialog).getByRole('textbox', { name: 'Note (optional)' })).toHaveValue('Asked about the new timetable');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toEqual([{ path: '22/contacts', body: { kind: 'left_message', note: 'Asked about the new timetable' } }]));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Log a contact with Free Two' })).toBeNull());

    await user.click(within(table).getByRole('button', { name: 'Snooze Free Two' }));
    dialog = await screen.findByRole('dialog', { name: 'Snooze Free Two off the at-risk list' });
    await user.click(within(dialog).getByRole('combobox', { name: 'For how long' }));
    await user.click(await screen.findByRole('option', { name: '14 days' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved.at(-1)).toEqual({ path: '22/snooze', body: { days: 14 } }));
    expect(await screen.findByText('Snoozed until Nov 29, 2026')).toBeTruthy();
  });
});
