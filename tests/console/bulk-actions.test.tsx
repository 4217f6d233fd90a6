import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Broadcast } from '@contract/broadcasts';
import type { BulkAction } from '@contract/bulkActions';
import { server, signedIn, testUser } from '../support/msw';
import { renderApp } from './helpers/renderApp';
import { CLIENTS } from './helpers/clientData';

/** A bulk override of two clients, granted before the answer. */
const GRANTED_TWO: BulkAction = {
  id: 9,
  kind: 'override',
  status: 'done',
  total: 2,
  done: 2,
  failed: 0,
  pending: 0,
  errors: [],
  created_at: '2026-11-22T12:00:00Z',
  finished_at: '2026-11-22T12:00:01Z',
};

function backend(total = CLIENTS.length, user = testUser) {
  const calls = { overrides: [] as Record<string, unknown>[], pushes: [] as Record<string, unknown>[], keys: [] as string[] };
  server.use(
    signedIn(user),
    http.get('*/api/client/v1/clients/:listId', () =>
      HttpResponse.json({ clients: CLIENTS, total, total_is_estimate: false, page: 1, perPage: 25, next_cursor: total > CLIENTS.length ? 'next' : null }),
    ),
    http.get('*/api/admin/v1/mindbody/sync', () => HttpResponse.json({ status: 'never', site_ids: [], sandbox: true })),
    http.get('*/api/client/v1/vod-access-levels', () =>
      HttpResponse.json({
        levels: [
          { name: 'VOD | BASIC', sort_order: 2 },
          { name: 'VOD | PREMIUM', sort_order: 3 },
        ],
      }),
    ),
    http.post('*/api/admin/v1/bulk/override', async ({ request }) => {
      calls.overrides.push((await request.json()) as Record<string, unknown>);
      return HttpResponse.json(GRANTED_TWO);
    }),
    http.get('*/api/admin/v1/bulk/override/:id', () => HttpResponse.json(GRANTED_TWO)),
    http.post('*/api/admin/v1/bulk/push', async ({ request }) => {
      calls.keys.push(request.headers.get('idempotency-key') ?? '');
      calls.pushes.push((await request.json()) as Record<string, unknown>);
      return HttpResponse.json({ id: 4, recipients: total, status: 'sending' });
    }),
    http.get('*/api/admin/v1/broadcasts/:id', () =>
      HttpResponse.json({
        id: 4,
        kind: 'bulk_push',
        title: '',
        body: 'Hi',
        filter: null,
        segment_id: null,
        status: 'sent',
        send_at: null,
        recipients: total,
        recipients_estimate: false,
        max_per_minute: null,
        counts: {
          sent: total - 1,
          failed: 0,
          skipped: 1,
          pending: 0,
          retrying: 0,
          waiting: 0,
          not_sent: 0,
          skipped_by_reason: { no_token: 1 },
          failed_by_reason: {},
        },
        goal: 'any',
        window_days: 7,
        holdout_percent: 0,
        held_out: 0,
        variants: null,
        test_percent: null,
        pick_winner_after_hours: null,
        winner_metric: null,
        winner: null,
        created_by: 'admin@localhost',
        created_at: '2026-11-22T12:00:00Z',
        started_at: null,
        finished_at: null,
      } satisfies Broadcast),
    ),
  );
  return calls;
}

describe('bulk actions on a client list', () => {
  it('grants an access level to two selected clients after a confirmation, and shows the result', async () => {
    const calls = backend();
    const { user } = renderApp('/clients/all');
    await screen.findByText('Ann');
    const rows = screen.getAllByRole('row');
    await user.click(within(rows.find((row) => row.textContent?.includes('Ann'))!).getByRole('checkbox'));
    await user.click(within(rows.find((row) => row.textContent?.includes('bob'))!).getByRole('checkbox'));
    await user.click(await screen.findByRole('button', { name: 'Grant access level to 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Grant an access level to 2 clients' });
    await user.click(within(dialog).getByRole('combobox', { name: 'New VOD Access Level' }));
    await user.click(await screen.findByRole('option', { name: 'VOD | PREMIUM' }));
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByRole('alert').textContent).toMatch(/^Grant this access level to 2 clients\?/);
    await user.click(within(dialog).getByRole('button', { name: 'Grant to 2 clients' }));
    expect(await within(dialog).findByText('Granted 2 of 2 (failed 0). Done.')).toBeTruthy();
    expect(calls.overrides).toEqual([{ client_ids: [11, 12], new_vod_access_level: 3, adminOverrideDate: expect.any(String) }]);
  });

  it("pushes to all N matching a list's filter, with the list's rule, and follows the progress", async () => {
    const calls = backend(1234);
    const { user } = renderApp('/clients/active');
    await screen.findByText('Ann');
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await user.click(await screen.findByRole('button', { name: 'Select all 1,234 matching' }));
    await user.click(screen.getByRole('button', { name: 'Push to 1,234' }));
    const dialog = await screen.findByRole('dialog', { name: 'Push to 1,234 clients' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'Hi');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.click(within(dialog).getByRole('button', { name: 'Push to 1,234 clients' }));
    expect(await within(dialog).findByText('Sent 1233 of 1234 (failed 0, skipped 1). Done.')).toBeTruthy();
    await waitFor(() => expect(calls.pushes).toEqual([{ filter: { status: ['Active'] }, title: '', body: 'Hi' }]));
    expect(calls.keys).toEqual([expect.stringMatching(/^.{8,100}$/)]);
  });

  it('offers the front desk a push to the selected rows, not to all matching (that is a broadcast)', async () => {
    backend(1234, { ...testUser, role: 'front_desk', permissions: ['clients.read', 'clients.push', 'dashboard.read', 'signed_in'] });
    const { user } = renderApp('/clients/active');
    await screen.findByText('Ann');
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(await screen.findByRole('button', { name: `Push to ${CLIENTS.length}` })).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Select all 1,234 matching' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Push to/ })).toBeNull());
  });

  it('selects clients on the phone card list and pushes to all N matching, as on the table', async () => {
    window.innerWidth = 390;
    try {
      const calls = backend(1234);
      const { user } = renderApp('/clients/active');
      const ann = await screen.findByRole('checkbox', { name: 'Select Ann Zeta' });
      expect(screen.queryByRole('columnheader')).toBeNull();
      expect(screen.getByRole('link', { name: /Ann Zeta/ })).toHaveAttribute('href', expect.stringMatching(/\/client\/\d+$/));
      await user.click(ann);
      await user.click(await screen.findByRole('button', { name: `Select the ${CLIENTS.length} on this page` }));
      await user.click(await screen.findByRole('button', { name: 'Select all 1,234 matching' }));
      await user.click(screen.getByRole('button', { name: 'Push to 1,234' }));
      const dialog = await screen.findByRole('dialog', { name: 'Push to 1,234 clients' });
      await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'Hi');
      await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
      await user.click(within(dialog).getByRole('button', { name: 'Push to 1,234 clients' }));
      expect(await within(dialog).findByText('Sent 1233 of 1234 (failed 0, skipped 1). Done.')).toBeTruthy();
      await waitFor(() => expect(calls.pushes).toEqual([{ filter: { status: ['Active'] }, title: '', body: 'Hi' }]));
    } finally {
      window.innerWidth = 1024;
    }
  });
});
