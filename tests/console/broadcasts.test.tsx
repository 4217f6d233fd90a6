import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Broadcast } from '@contract/broadcasts';
import type { Segment } from '@contract/segments';
import { server, signedIn } from '../support/msw';
import { renderApp } from './helpers/renderApp';
import { CLIENTS } from './helpers/clientData';

const segment: Segment = {
  id: 7,
  name: 'Sofia only',
  filter: { q: 'sofia@reach.test' },
  count: 1,
  count_is_estimate: false,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
};
const broadcast = (overrides: Partial<Broadcast> = {}): Broadcast => ({
  id: 3,
  kind: 'broadcast',
  title: 'Hi {first_name}',
  body: 'See you',
  filter: { q: 'x' },
  segment_id: 7,
  status: 'sent',
  send_at: null,
  recipients: 3,
  recipients_estimate: false,
  max_per_minute: null,
  counts: { sent: 1, failed: 0, skipped: 2, pending: 0, retrying: 0, not_sent: 0, skipped_by_reason: { opted_out: 1, no_token: 1 }, failed_by_reason: {} },
  created_by: 'admin@localhost',
  created_at: '2026-11-20T10:00:00Z',
  started_at: '2026-11-20T10:00:00Z',
  finished_at: '2026-11-20T10:00:05Z',
  ...overrides,
});

function backend() {
  const calls = { created: [] as unknown[], keys: [] as string[], cancelled: [] as string[], edited: [] as unknown[], sent: [] as unknown[] };
  server.use(
    signedIn(),
    http.get('*/api/admin/v1/segments', () => HttpResponse.json([segment], { headers: { 'content-range': 'segments 0-0/1' } })),
    http.get('*/api/admin/v1/segments/:id', () => HttpResponse.json(segment)),
    http.get('*/api/client/v1/clients/:listId', () =>
      HttpResponse.json({ clients: CLIENTS.slice(0, 1), total: 1, total_is_estimate: false, page: 1, perPage: 25, next_cursor: null }),
    ),
    http.get('*/api/admin/v1/mindbody/sync', () => HttpResponse.json({ status: 'never', site_ids: [], sandbox: true })),
    http.post('*/api/admin/v1/broadcasts', async ({ request }) => {
      calls.keys.push(request.headers.get('idempotency-key') ?? '');
      calls.created.push(await request.json());
      return HttpResponse.json({ id: 4, recipients: 1, status: 'sending' });
    }),
    http.get('*/api/admin/v1/broadcasts', () =>
      HttpResponse.json(
        [
          broadcast({
            id: 5,
            status: 'scheduled',
            send_at: '2026-12-01T09:00:00Z',
            counts: { sent: 0, failed: 0, skipped: 0, pending: 2, retrying: 0, not_sent: 0, skipped_by_reason: {}, failed_by_reason: {} },
          }),
          broadcast(),
          broadcast({
            id: 8,
            status: 'cancelled',
            title: 'Stopped half way',
            recipients: 1000,
            counts: {
              sent: 470,
              failed: 2,
              skipped: 1,
              pending: 0,
              retrying: 0,
              not_sent: 527,
              skipped_by_reason: { opted_out: 1 },
              failed_by_reason: { unregistered: 2 },
            },
          }),
          broadcast({
            id: 9,
            status: 'sending',
            title: 'Waiting on FCM',
            recipients: 10,
            counts: { sent: 4, failed: 0, skipped: 0, pending: 2, retrying: 4, not_sent: 0, skipped_by_reason: {}, failed_by_reason: {} },
          }),
          broadcast({
            id: 6,
            status: 'draft',
            title: 'Draft title',
            body: 'Old text',
            counts: { sent: 0, failed: 0, skipped: 0, pending: 0, retrying: 0, not_sent: 0, skipped_by_reason: {}, failed_by_reason: {} },
          }),
        ],
        {
          headers: { 'content-range': 'broadcasts 0-4/5' },
        },
      ),
    ),
    http.put('*/api/admin/v1/broadcasts/:id', async ({ params, request }) => {
      calls.edited.push([String(params.id), await request.json()]);
      return HttpResponse.json(broadcast({ id: 6, status: 'draft', title: 'Draft title', body: 'New text' }));
    }),
    http.post('*/api/admin/v1/broadcasts/:id/send', async ({ params, request }) => {
      calls.sent.push([String(params.id), await request.json()]);
      return HttpResponse.json({ id: 6, recipients: 3, status: 'sending' });
    }),
    http.post('*/api/admin/v1/broadcasts/:id/cancel', ({ params }) => {
      calls.cancelled.push(String(params.id));
      return HttpResponse.json(broadcast({ id: 5, status: 'cancelled' }));
    }),
  );
  return calls;
}

describe('broadcasts', { timeout: 60_000 }, () => {
  it('broadcasts to a segment after a confirmation that names the recipient count', async () => {
    const calls = backend();
    const { user } = renderApp('/segments/7');
    await user.click(await screen.findByRole('button', { name: 'Broadcast' }));
    const dialog = await screen.findByRole('dialog', { name: 'Broadcast to 1 client' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Hi {{first_name}');
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'New classes this week');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByRole('alert').textContent).toMatch(/^Send this push now to 1 client\?/);
    expect(calls.created).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Send to 1 client' }));
    await within(dialog).findByText(/Sending to 1 client\./);
    expect(calls.created).toEqual([{ segment_id: 7, title: 'Hi {first_name}', body: 'New classes this week' }]);
    // One Idempotency-Key per dialog: the server answers a repeated request with the same broadcast.
    expect(calls.keys).toEqual([expect.stringMatching(/^.{8,100}$/)]);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 5000 });
    await user.click(await screen.findByRole('button', { name: 'Broadcast' }));
    const again = await screen.findByRole('dialog', { name: 'Broadcast to 1 client' });
    await user.type(within(again).getByRole('textbox', { name: 'Message' }), 'Another one');
    await user.click(within(again).getByRole('button', { name: 'Continue' }));
    await user.click(within(again).getByRole('button', { name: 'Send to 1 client' }));
    await within(again).findByText(/Sending to 1 client\./);
    expect(calls.keys).toHaveLength(2);
    expect(calls.keys[1]).not.toBe(calls.keys[0]);
  });

  it('lists the history with results by reason, and cancels a scheduled one', async () => {
    const calls = backend();
    const { user } = renderApp('/broadcasts');
    await screen.findByRole('heading', { level: 1, name: 'Broadcasts' });
    // A finished one: no pending. A cancelled one: what it did not send reads 'not sent', never 'pending'.
    expect(await screen.findByText('sent 1 · failed 0 · skipped 2 (opted out 1, no device 1)')).toBeTruthy();
    expect(screen.getByText('sent 470 · failed 2 (app removed 2) · skipped 1 (opted out 1) · not sent 527')).toBeTruthy();
    expect(screen.getByText('sent 4 · failed 0 · skipped 0 · retrying 4 · pending 2')).toBeTruthy();
    expect(screen.getByText(/^Scheduled /)).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Cancel: Hi {first_name}' }));
    await waitFor(() => expect(calls.cancelled).toEqual(['5']));
  });

  it('edits a draft and sends it, the confirmation naming its recipients', async () => {
    const calls = backend();
    const { user } = renderApp('/broadcasts');
    await user.click(await screen.findByRole('button', { name: 'Edit: Draft title' }));
    const dialog = await screen.findByRole('dialog', { name: 'Draft to 3 clients' });
    const message = within(dialog).getByRole('textbox', { name: 'Message' });
    expect((message as HTMLTextAreaElement).value).toBe('Old text');
    await user.clear(message);
    await user.type(message, 'New text');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByRole('alert').textContent).toMatch(/^Send this push now to 3 clients\?/);
    await user.click(within(dialog).getByRole('button', { name: 'Send to 3 clients' }));
    await within(dialog).findByText(/Sending to 3 clients\./);
    expect(calls.edited).toEqual([['6', { title: 'Draft title', body: 'New text' }]]);
    expect(calls.sent).toEqual([['6', {}]]);
  });
});
