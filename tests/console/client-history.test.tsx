import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { AuditEntry } from '@contract/audit';
import { server, signedIn } from '../support/msw';
import { renderApp } from './helpers/renderApp';
import { aClient } from './helpers/clientData';
import { fakeAutomationServer } from '../support/automationMsw';

const kim = aClient({ _id: 7 });

function clientWithHistory(history: AuditEntry[] | 'fail') {
  const auditQueries: URLSearchParams[] = [];
  server.use(
    signedIn(),
    ...fakeAutomationServer().handlers,
    http.get('*/api/client/v1/client-details/:id', () => HttpResponse.json({ client: [kim] })),
    http.get('*/api/client/v1/client-details/:siteId/:mbClientId/contracts', () => HttpResponse.json({ errors: [], contracts: [] })),
    http.get('*/api/client/v1/client-details/:siteId/:mbClientId/purchases', () => HttpResponse.json({ errors: [], purchases: [] })),
    http.get('*/api/client/v1/client-details/:siteId/:mbClientId/:email/debug', () => HttpResponse.json({ debugInfo: [] })),
    http.post('*/api/client/v1/client-details/recently-viewed-videos', () => HttpResponse.json({ videos: [] })),
    http.post('*/api/client/v1/client-details/favorites-videos', () => HttpResponse.json({ videos: [] })),
    http.get('*/api/admin/v1/pushes', () => HttpResponse.json([], { headers: { 'content-range': 'pushes */0' } })),
    http.get('*/api/client/v1/vod-access-levels', () =>
      HttpResponse.json({
        levels: [
          { name: 'VOD | FREE', sort_order: 1 },
          { name: 'VOD | BASIC', sort_order: 2 },
          { name: 'VOD | PREMIUM', sort_order: 3 },
        ],
      }),
    ),
    http.get('*/api/admin/v1/audit', ({ request }) => {
      auditQueries.push(new URL(request.url).searchParams);
      if (history === 'fail') return HttpResponse.json({ message: 'The audit log is unavailable' }, { status: 500 });
      return HttpResponse.json(history, { headers: { 'content-range': history.length ? `audit 0-${history.length - 1}/${history.length}` : 'audit */0' } });
    }),
  );
  return auditQueries;
}

const grant: AuditEntry = {
  id: 40,
  at: '2026-11-21T10:15:00.000Z',
  staff_user_id: 1,
  staff_email: 'coach@studio.test',
  action: 'client.override_grant',
  target_type: 'client',
  target_id: '7',
  client_id: 7,
  before: { vod_access_level: 1, admin_updated_expiration: null },
  after: { vod_access_level: 3, admin_updated_expiration: '2026-11-28T10:15:00.000Z' },
  ip: '127.0.0.1',
};

describe('client details: History', () => {
  it("asks for this client's entries, newest first, and shows who changed what with before → after", async () => {
    const queries = clientWithHistory([
      grant,
      { ...grant, id: 39, action: 'client.push', staff_email: 'desk@studio.test', before: null, after: { title: 'Hi Kim' } },
    ]);
    const { user } = renderApp('/client/7');
    const section = await screen.findByRole('region', { name: 'History' });
    await user.click(within(section).getByRole('button', { name: 'View History' }));
    await waitFor(() => expect(within(section).getAllByRole('row')).toHaveLength(3));
    expect(
      within(section)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['When', 'Staff member', 'Action', 'Changes']);
    const [first, second] = within(section).getAllByRole('row').slice(1);
    expect(within(first!).getByText('coach@studio.test')).toBeVisible();
    expect(within(first!).getByText('Granted an access level override')).toBeVisible();
    expect(await within(first!).findByTitle('VOD access level: VOD | FREE → VOD | PREMIUM')).toBeVisible();
    expect(within(first!).getByTitle(/^Override until: — → Nov 28, 2026, \d{1,2}:15 [AP]M$/)).toBeVisible();
    expect(within(second!).getByText('Sent a push notification')).toBeVisible();
    expect(within(second!).getByTitle('Title: Hi Kim')).toBeVisible();
    expect(JSON.parse(queries[0]!.get('filter')!)).toEqual({ client_id: 7 });
    expect(JSON.parse(queries[0]!.get('sort')!)).toEqual(['at', 'DESC']);
  });

  it('says so when nothing was recorded for the client', async () => {
    clientWithHistory([]);
    const { user } = renderApp('/client/7');
    const section = await screen.findByRole('region', { name: 'History' });
    await user.click(within(section).getByRole('button', { name: 'View History' }));
    expect(await within(section).findByText('No staff actions recorded for this client yet.')).toBeVisible();
  });

  it('shows an error instead of an empty history when the log cannot be read', async () => {
    clientWithHistory('fail');
    const { user } = renderApp('/client/7');
    const section = await screen.findByRole('region', { name: 'History' });
    await user.click(within(section).getByRole('button', { name: 'View History' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('History could not be loaded: The audit log is unavailable');
    expect(within(section).getByRole('button', { name: 'Retry History' })).toBeVisible();
  });
});
