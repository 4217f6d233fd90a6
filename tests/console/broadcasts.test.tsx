import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Broadcast } from '@contract/broadcasts';
import type { Segment } from '@contract/segments';
import { server, signedIn } from '../support/msw';
import { renderApp } from './helpers/renderApp';
import { CLIENTS } from './helpers/clientData';

/**
 * Puts text into a field as a paste: one input event instead of one per character. Typed character
 * by character, this dialog's six texts took most of a minute on a busy machine.
 */
async function fill(user: ReturnType<typeof renderApp>['user'], field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

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
  counts: {
    sent: 1,
    failed: 0,
    skipped: 2,
    pending: 0,
    retrying: 0,
    waiting: 0,
    not_sent: 0,
    skipped_by_reason: { opted_out: 1, no_token: 1 },
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
            counts: { sent: 0, failed: 0, skipped: 0, pending: 2, retrying: 0, waiting: 0, not_sent: 0, skipped_by_reason: {}, failed_by_reason: {} },
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
              waiting: 0,
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
            counts: { sent: 4, failed: 0, skipped: 0, pending: 2, retrying: 4, waiting: 0, not_sent: 0, skipped_by_reason: {}, failed_by_reason: {} },
          }),
          broadcast({
            id: 6,
            status: 'draft',
            title: 'Draft title',
            body: 'Old text',
            counts: { sent: 0, failed: 0, skipped: 0, pending: 0, retrying: 0, waiting: 0, not_sent: 0, skipped_by_reason: {}, failed_by_reason: {} },
          }),
        ],
        {
          headers: { 'content-range': 'broadcasts 0-4/5' },
        },
      ),
    ),
    http.get('*/api/admin/v1/broadcasts/:id/outcome', ({ params }) =>
      HttpResponse.json({
        broadcast_id: Number(params.id),
        goal: 'any',
        window_days: 7,
        holdout_percent: 20,
        clients: 243,
        sent: 220,
        delivered: 219,
        opened: 31,
        converted: 80,
        conversion_rate: 80 / 243,
        holdout: { clients: 57, converted: 7, conversion_rate: 7 / 57 },
        lift: { clients: 50, low: 25, high: 75, significant: true, method: 'normal' },
        window_closes_at: '2026-11-27T10:00:05Z',
        variants: [],
        winner: null,
        winner_due_at: null,
        waiting: 0,
      }),
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

describe('broadcasts', () => {
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
    expect(calls.created).toEqual([
      { segment_id: 7, title: 'Hi {first_name}', body: 'New classes this week', goal: { kind: 'any', window_days: 7 }, holdout_percent: 0 },
    ]);
    // One Idempotency-Key per dialog: the server answers a repeated request with the same broadcast.
    expect(calls.keys).toEqual([expect.stringMatching(/^.{8,100}$/)]);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(await screen.findByRole('button', { name: 'Broadcast' }));
    const again = await screen.findByRole('dialog', { name: 'Broadcast to 1 client' });
    await user.type(within(again).getByRole('textbox', { name: 'Message' }), 'Another one');
    await user.click(within(again).getByRole('button', { name: 'Continue' }));
    await user.click(within(again).getByRole('button', { name: 'Send to 1 client' }));
    await within(again).findByText(/Sending to 1 client\./);
    expect(calls.keys).toHaveLength(2);
    expect(calls.keys[1]).not.toBe(calls.keys[0]);
  });

  it('sends with a goal and a holdout, the confirmation saying who is held out', async () => {
    const calls = backend();
    const { user } = renderApp('/segments/7');
    await user.click(await screen.findByRole('button', { name: 'Broadcast' }));
    const dialog = await screen.findByRole('dialog', { name: 'Broadcast to 1 client' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'Streams are back');
    await user.click(within(dialog).getByRole('combobox', { name: 'Goal' }));
    await user.click(await screen.findByRole('option', { name: 'a stream' }));
    const days = within(dialog).getByRole('spinbutton', { name: 'Within (days)' });
    await user.clear(days);
    await user.type(days, '3');
    const holdout = within(dialog).getByRole('spinbutton', { name: 'Hold out (%)' });
    await user.clear(holdout);
    await user.type(holdout, '60');
    expect(within(dialog).getByRole('button', { name: 'Continue' })).toHaveProperty('disabled', true);
    await user.clear(holdout);
    await user.type(holdout, '20');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByRole('alert').textContent).toMatch(/20 % of them, drawn at random, are held out to measure the lift/);
    await user.click(within(dialog).getByRole('button', { name: 'Send to 1 client' }));
    await within(dialog).findByText(/Sending to 1 client\./);
    expect(calls.created).toEqual([{ segment_id: 7, title: '', body: 'Streams are back', goal: { kind: 'stream', window_days: 3 }, holdout_percent: 20 }]);
  });

  it("shows a sent broadcast's results in plain words, with links to the clients behind them", async () => {
    backend();
    renderApp('/broadcasts');
    // The sent broadcast and the one still sending have results; drafts, scheduled and cancelled ones have none.
    await waitFor(() => expect(screen.getAllByTestId('outcome-summary')).toHaveLength(2));
    const [summary, sending] = screen.getAllByTestId('outcome-summary') as [HTMLElement, HTMLElement];
    // 80 / 243 = 32.92 %, 7 / 57 = 12.28 %
    expect(within(summary).getByText('80 of 243 came back (32.9 %) · held out: 7 of 57 (12.3 %)')).toBeTruthy();
    expect(within(summary).getByText('About 50 more clients came back than would have without it, between 25 and 75.')).toBeTruthy();
    expect(within(summary).getByText('Sent 220 · delivered 219 · opened 31')).toBeTruthy();
    const link = within(summary).getByRole('link', { name: 'reached the goal (80)' });
    expect(decodeURIComponent(link.getAttribute('href')!)).toBe('/clients/all?filter={"outcome":"broadcast:3:converted"}');
    const sendingLink = within(sending).getByRole('link', { name: 'reached the goal (80)' });
    expect(decodeURIComponent(sendingLink.getAttribute('href')!)).toBe('/clients/all?filter={"outcome":"broadcast:9:converted"}');
  });

  it('asks the staff member to confirm it is them when the server wants a fresh check, then sends the same broadcast once', async () => {
    const calls = backend();
    const reauths: unknown[] = [];
    let checked = false;
    server.use(
      http.get('*/api/auth/two-step', () => HttpResponse.json({ enabled: false, enabled_at: null, recovery_codes_left: 0, required: false })),
      // No passkeys: the dialog offers the password alone.
      http.get('*/api/auth/passkeys', () => HttpResponse.json([])),
      http.post('*/api/auth/reauth', async ({ request }) => {
        const body = (await request.json()) as { password?: string };
        reauths.push(body);
        if (body.password !== 'my password') {
          return HttpResponse.json(
            { message: 'Invalid request: body.password: is not your password', errors: [{ path: 'body.password', message: 'is not your password' }] },
            { status: 400 },
          );
        }
        checked = true;
        return HttpResponse.json({ reauthenticated: true, valid_until: '2026-11-22T12:15:00Z' });
      }),
      http.post('*/api/admin/v1/broadcasts', async ({ request }) => {
        if (!checked) return HttpResponse.json({ message: 'Confirm it is you', reauth_required: true }, { status: 403 });
        calls.created.push(await request.json());
        return HttpResponse.json({ id: 4, recipients: 1, status: 'sending' });
      }),
    );
    const { user } = renderApp('/segments/7');
    await user.click(await screen.findByRole('button', { name: 'Broadcast' }));
    const dialog = await screen.findByRole('dialog', { name: 'Broadcast to 1 client' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'Checked news');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send to 1 client' }));
    const check = await screen.findByRole('dialog', { name: 'Confirm it is you' });
    // Without two-step on, only the password is offered.
    expect(within(check).queryByRole('button', { name: 'Code' })).toBeNull();
    await user.type(within(check).getByLabelText(/^Password/), 'wrong one');
    await user.click(within(check).getByRole('button', { name: 'Confirm' }));
    expect(await within(check).findByText('is not your password')).toBeTruthy();
    await user.clear(within(check).getByLabelText(/^Password/));
    await user.type(within(check).getByLabelText(/^Password/), 'my password');
    await user.click(within(check).getByRole('button', { name: 'Confirm' }));
    await within(dialog).findByText(/Sending to 1 client\./);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).toBeNull());
    expect(reauths).toEqual([{ password: 'wrong one' }, { password: 'my password' }]);
    expect(calls.created).toEqual([{ segment_id: 7, title: '', body: 'Checked news', goal: { kind: 'any', window_days: 7 }, holdout_percent: 0 }]);
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

  it('sends up to three versions with the test share, the hours and the metric, the confirmation saying how they are tested', async () => {
    const calls = backend();
    const { user } = renderApp('/segments/7');
    await user.click(await screen.findByRole('button', { name: 'Broadcast' }));
    const dialog = await screen.findByRole('dialog', { name: 'Broadcast to 1 client' });
    await fill(user, within(dialog).getByRole('textbox', { name: 'Title' }), 'Come back');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Message' }), 'Classes this week');
    await user.click(within(dialog).getByRole('button', { name: 'Add a version' }));
    // Version B has no text yet: nothing can be sent.
    expect(within(dialog).getByRole('button', { name: 'Continue' })).toHaveProperty('disabled', true);
    await fill(user, within(dialog).getByRole('textbox', { name: 'Title (B)' }), 'We miss you');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Message (B)' }), 'A free class is waiting');
    expect(within(dialog).getByRole('textbox', { name: 'Title (A)' })).toHaveProperty('value', 'Come back');
    await user.click(within(dialog).getByRole('button', { name: 'Add a version' }));
    await fill(user, within(dialog).getByRole('textbox', { name: 'Title (C)' }), 'New videos');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Message (C)' }), 'Stream the new series');
    // Three at most.
    expect(within(dialog).queryByRole('button', { name: 'Add a version' })).toBeNull();
    const share = within(dialog).getByRole('spinbutton', { name: 'Test on (%)' });
    await user.clear(share);
    await user.type(share, '60');
    expect(within(dialog).getByRole('button', { name: 'Continue' })).toHaveProperty('disabled', true);
    await user.clear(share);
    await user.type(share, '30');
    const hours = within(dialog).getByRole('spinbutton', { name: 'Pick the winner after (hours)' });
    await user.clear(hours);
    await user.type(hours, '0');
    expect(within(dialog).getByRole('button', { name: 'Continue' })).toHaveProperty('disabled', true);
    await user.clear(hours);
    await user.type(hours, '6');
    await user.click(within(dialog).getByRole('combobox', { name: 'Best by' }));
    await user.click(await screen.findByRole('option', { name: 'open rate' }));
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByRole('alert').textContent).toMatch(
      /3 versions are tested on 30 % of the others; after 6 hours the best by open rate goes to the rest\./,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Send to 1 client' }));
    await within(dialog).findByText(/Sending to 1 client\./);
    expect(calls.created).toEqual([
      {
        segment_id: 7,
        variants: [
          { title: 'Come back', body: 'Classes this week' },
          { title: 'We miss you', body: 'A free class is waiting' },
          { title: 'New videos', body: 'Stream the new series' },
        ],
        test_percent: 30,
        pick_winner_after_hours: 6,
        winner_metric: 'open',
        goal: { kind: 'any', window_days: 7 },
        holdout_percent: 0,
      },
    ]);
  });

  it("shows each version's figures and the winner with its reason, and the rest waiting for it", async () => {
    backend();
    const versions = [
      { title: 'Come back', body: 'Classes' },
      { title: 'We miss you', body: 'Free class' },
    ];
    const figures = (clients: number, sent: number, opened: number, converted: number) => ({
      clients,
      sent,
      delivered: sent,
      opened,
      converted,
      conversion_rate: converted / clients,
      holdout: { clients: 0, converted: 0, conversion_rate: null },
      lift: null,
    });
    const waitingCounts = { sent: 100, failed: 0, skipped: 0, pending: 0, retrying: 0, waiting: 120, not_sent: 0, skipped_by_reason: {}, failed_by_reason: {} };
    server.use(
      http.get('*/api/admin/v1/broadcasts', () =>
        HttpResponse.json(
          [
            broadcast({ id: 3, variants: versions, test_percent: 40, pick_winner_after_hours: 4, winner_metric: 'conversion' }),
            broadcast({
              id: 9,
              status: 'sending',
              recipients: 220,
              counts: waitingCounts,
              variants: versions,
              test_percent: 45,
              pick_winner_after_hours: 4,
              winner_metric: 'open',
            }),
          ],
          { headers: { 'content-range': 'broadcasts 0-1/2' } },
        ),
      ),
      http.get('*/api/admin/v1/broadcasts/:id/outcome', ({ params }) => {
        const picked = Number(params.id) === 3;
        // A: 6 of 50 converted, B: 12 of 50 (12 % and 24 %); A opened 5 of 50, B 9 of 50.
        const a = { index: 0, ...versions[0]!, ...figures(50, 50, 5, 6), open_rate: 5 / 50, winner: false };
        const b = { index: 1, ...versions[1]!, ...figures(50, 50, 9, 12), open_rate: 9 / 50, winner: picked };
        return HttpResponse.json({
          broadcast_id: Number(params.id),
          goal: 'any',
          window_days: 7,
          holdout_percent: 0,
          ...figures(100, 100, 14, 18),
          window_closes_at: null,
          variants: [a, b],
          winner: picked
            ? {
                index: 1,
                reason: 'better',
                metric: 'conversion',
                picked_at: '2026-11-20T14:00:00Z',
                versions: [
                  { clients: 50, hits: 6, rate: 6 / 50 },
                  { clients: 50, hits: 12, rate: 12 / 50 },
                ],
              }
            : null,
          winner_due_at: picked ? null : '2026-11-20T14:00:00Z',
          waiting: picked ? 0 : 120,
        });
      }),
    );
    renderApp('/broadcasts');
    await waitFor(() => expect(screen.getAllByTestId('variant-results')).toHaveLength(2));
    const [sent, waiting] = screen.getAllByTestId('variant-results') as [HTMLElement, HTMLElement];
    expect(within(sent).getByText('Version A “Come back”: sent 50 · opened 5 (10 %) · 6 of 50 came back (12 %)')).toBeTruthy();
    expect(within(sent).getByText('Version B “We miss you”: sent 50 · opened 9 (18 %) · 12 of 50 came back (24 %) · went to the rest')).toBeTruthy();
    expect(within(sent).getByText('Version B went to the rest: 24 % vs 12 % (conversion rate), better beyond the interval.')).toBeTruthy();
    expect(within(waiting).getByText(/^The rest \(120 clients\) gets the best version by open rate at \S/)).toBeTruthy();
    expect(within(waiting).queryByText(/went to the rest/)).toBeNull();
    expect(screen.getByText(/waiting for the winner 120/)).toBeTruthy();
  });
});
