import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { DataRequest, Erasure } from '@contract/clientData';
import { fakeClientProfileServer } from '../support/clientProfileMsw';
import { server, signedIn } from '../support/msw';
import { renderApp } from './helpers/renderApp';
import { aClient } from './helpers/clientData';
import { clientsExporter } from '../../src/clients/clientsExporter';

const ERASURE: Erasure = {
  client_id: 7,
  label: 'erased client #7',
  reason: 'Asked by e-mail',
  staff_email: 'admin@localhost',
  erased_at: '2026-11-22T12:00:00.000Z',
  outside: [
    { service: 'algolia', state: 'done', attempts: 1, last_error: null, done_at: '2026-11-22T12:00:05.000Z' },
    { service: 'revenuecat', state: 'failed', attempts: 1, last_error: 'RevenueCat answered 503', done_at: null },
  ],
};

async function openClient() {
  const fake = fakeClientProfileServer({ client: aClient({ _id: 7, email_address: 'kim.park@studio.test' }) });
  const erases: unknown[] = [];
  const exports: string[] = [];
  let erasure: Erasure | null = null;
  server.use(
    ...fake.handlers,
    http.get('*/api/admin/v1/clients/:id/erasure', () => HttpResponse.json({ erasure })),
    http.get('*/api/admin/v1/clients/:id/export', ({ request }) => {
      exports.push(new URL(request.url).searchParams.get('format') ?? '');
      return new HttpResponse('{"client_id":7}', {
        headers: { 'content-type': 'application/json', 'content-disposition': 'attachment; filename="client-7-data-2026-11-22.json"' },
      });
    }),
    http.post('*/api/admin/v1/clients/:id/erase', async ({ request }) => {
      const body = (await request.json()) as { reason: string; confirm_email: string };
      erases.push(body);
      if (body.confirm_email !== 'kim.park@studio.test') {
        return HttpResponse.json({ message: "The e-mail typed does not match the client's e-mail: nothing was erased." }, { status: 422 });
      }
      erasure = ERASURE;
      return HttpResponse.json(ERASURE);
    }),
  );
  const view = renderApp('/client/7');
  await screen.findByLabelText('Client Details');
  return { ...view, erases, exports };
}

describe('a client’s data rights on the client page', () => {
  afterEach(() => vi.restoreAllMocks());

  it('downloads the export through the dataProvider', async () => {
    const createObjectURL = vi.fn(() => 'blob:export');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { user, exports } = await openClient();
    await user.click(await screen.findByRole('button', { name: 'Export data' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Everything as one JSON file' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(exports).toEqual(['json']);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('client-7-data-2026-11-22.json');
    expect(await screen.findByText('The export is downloading.')).toBeInTheDocument();
  });

  it('erases only with a reason and the e-mail typed again, then shows the erased state', async () => {
    const { user, erases } = await openClient();
    await user.click(await screen.findByRole('button', { name: 'Erase client' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erase this client?' });
    const submit = within(dialog).getByRole('button', { name: 'Erase for good' });
    expect(submit).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Asked by e-mail');
    await user.type(within(dialog).getByRole('textbox', { name: /Type the client's e-mail again/ }), 'someone@else.test');
    await user.click(submit);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent("Nothing was erased: The e-mail typed does not match the client's e-mail");
    await user.clear(within(dialog).getByRole('textbox', { name: /Type the client's e-mail again/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Type the client's e-mail again/ }), 'kim.park@studio.test');
    await user.click(submit);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(erases.at(-1)).toEqual({ reason: 'Asked by e-mail', confirm_email: 'kim.park@studio.test' });
    expect(await screen.findByRole('heading', { name: 'Erased client #7' })).toBeInTheDocument();
    expect(screen.getByText(/RevenueCat: retrying \(RevenueCat answered 503\)/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Erase client' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export data' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send a push notification to client' })).toBeNull();
  });

  it('shows who looked to owners', async () => {
    server.use(
      http.get('*/api/admin/v1/clients/:id/looks', () =>
        HttpResponse.json({
          looks: [{ staff_email: 'desk@studio.test', hour: '2026-11-22T11:00:00.000Z', first_at: '2026-11-22T11:12:00.000Z', kind: 'page' }],
        }),
      ),
    );
    const { user } = await openClient();
    const section = await screen.findByRole('region', { name: 'Who looked' });
    await user.click(within(section).getByRole('button', { name: /View/ }));
    expect(await within(section).findByText(/desk@studio\.test · opened the page/)).toBeInTheDocument();
  });
});

const request = (overrides: Partial<DataRequest>): DataRequest => ({
  id: 1,
  kind: 'access',
  client_id: 7,
  client_label: 'Kim Park',
  received_at: '2026-11-01T09:00:00.000Z',
  due_at: '2026-12-01T09:00:00.000Z',
  note: null,
  logged_by: 'admin@localhost',
  handled_at: null,
  handled_by: null,
  standing: 'open',
  ...overrides,
});

describe('the Data requests page', () => {
  it('lists requests with due dates, warns about the pressing ones, logs and handles one', async () => {
    let requests = [
      request({ id: 1, standing: 'overdue' }),
      request({ id: 2, kind: 'erasure', client_label: 'erased client #9', client_id: 9, standing: 'due_soon' }),
    ];
    const logged: unknown[] = [];
    server.use(
      signedIn(),
      http.get('*/api/admin/v1/data-requests', () =>
        HttpResponse.json(requests, { headers: { 'content-range': `data-requests 0-${requests.length - 1}/${requests.length}` } }),
      ),
      http.post('*/api/admin/v1/data-requests', async ({ request: call }) => {
        const body = (await call.json()) as Record<string, unknown>;
        logged.push(body);
        const added = request({ id: 3, client_id: Number(body.client_id), client_label: 'Ann Zeta' });
        requests = [...requests, added];
        return HttpResponse.json(added);
      }),
      http.post('*/api/admin/v1/data-requests/:id/handled', ({ params }) => {
        requests = requests.map((one) =>
          one.id === Number(params.id) ? { ...one, standing: 'handled', handled_at: '2026-11-22T12:00:00.000Z', handled_by: 'admin@localhost' } : one,
        );
        return HttpResponse.json(requests.find((one) => one.id === Number(params.id)));
      }),
      http.get('*/api/admin/v1/retention', () =>
        HttpResponse.json({ debug_reports: 90, device_reports: 400, view_detail: 730, finished_jobs: 14, audit_entries: 2190 }),
      ),
    );
    const { user } = renderApp('/data-requests');
    const table = await screen.findByRole('table', { name: 'Data requests' });
    expect(screen.getByText('2 requests are due within a week or overdue.')).toBeInTheDocument();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent(/Access \(export\)Kim Park.*Overdue/);
    expect(rows[1]).toHaveTextContent(/Erasureerased client #9.*Due soon/);
    await user.click(within(rows[0]!).getByRole('button', { name: 'Mark handled' }));
    await waitFor(() => expect(within(table).getAllByRole('row')[1]).toHaveTextContent(/Handled.*by admin@localhost/));

    await user.click(screen.getByRole('button', { name: 'Log a request' }));
    const dialog = await screen.findByRole('dialog', { name: 'Log a request' });
    await user.type(within(dialog).getByRole('textbox', { name: /Client ID/ }), '11');
    await user.click(within(dialog).getByRole('button', { name: 'Log' }));
    await waitFor(() => expect(logged).toHaveLength(1));
    expect(logged[0]).toMatchObject({ kind: 'access', client_id: 11 });
    expect(await screen.findByText('Ann Zeta')).toBeInTheDocument();
    expect(await screen.findByRole('textbox', { name: 'Per-view detail of streams' })).toHaveValue('730');
  });
});

describe('exporting a client list', () => {
  it('records who looked at the exported clients through the dataProvider', async () => {
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:list'), revokeObjectURL: vi.fn() });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const recordListLooks = vi.fn(async () => undefined);
    await clientsExporter(
      [
        { ...aClient({ _id: 3 }), id: 3 },
        { ...aClient({ _id: 4 }), id: 4 },
      ],
      vi.fn(),
      { recordListLooks } as never,
      'clients-all',
    );
    expect(recordListLooks).toHaveBeenCalledWith([3, 4]);
    vi.restoreAllMocks();
  });
});
