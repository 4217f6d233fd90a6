import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { TimelineEntry } from '@contract/timeline';
import type { Note } from '@contract/notes';
import { clientFilterOf, pageSearch } from '../../src/common/listPaging';
import { fakeClientProfileServer } from '../support/clientProfileMsw';
import { EMPTY_GLANCE, server } from '../support/msw';
import { renderApp } from './helpers/renderApp';
import { aClient } from './helpers/clientData';

const entry = (
  n: number,
  kind: TimelineEntry['kind'],
  event: TimelineEntry['event'],
  title: string,
  detail: string | null = null,
  by: string | null = null,
  until: string | null = null,
): TimelineEntry => ({
  id: `${kind}-${n}`,
  at: new Date(Date.UTC(2026, 10, 22 - n, 12)).toISOString(),
  kind,
  event,
  title,
  detail,
  by,
  until,
});
const PAGE_1 = [
  entry(1, 'override', 'override.ended', 'VOD | BASIC', null, 'coach@studio.test'),
  entry(2, 'override', 'override.granted', 'VOD | PREMIUM', 'Injury: free month', 'coach@studio.test', '2027-01-21T15:30:00.000Z'),
];
const PAGE_2 = [entry(3, 'visit', 'visit.signed_in', 'Vinyasa Flow')];

async function openClient() {
  const fake = fakeClientProfileServer({ client: aClient({ _id: 7 }) });
  const timelineQueries: URLSearchParams[] = [];
  server.use(
    ...fake.handlers,
    http.get('*/api/admin/v1/clients/:id/timeline', ({ request }) => {
      const query = new URL(request.url).searchParams;
      timelineQueries.push(query);
      if (query.get('kinds')) return HttpResponse.json({ entries: PAGE_2, next: null });
      return HttpResponse.json(query.get('before') ? { entries: PAGE_2, next: null } : { entries: PAGE_1, next: 'cursor-1' });
    }),
  );
  const view = renderApp('/client/7');
  await screen.findByLabelText('Client Details');
  return { ...view, calls: fake.calls, timelineQueries };
}

describe('the client profile', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the timeline newest first with who did it and why, loads more, and filters by kind', async () => {
    const { user, timelineQueries } = await openClient();
    const timeline = await screen.findByRole('region', { name: 'Timeline' });
    await within(timeline).findByRole('list', { name: 'Timeline' });
    // Looked up each time: a new filter shows a new list once its first page is in.
    const items = () =>
      within(within(timeline).getByRole('list', { name: 'Timeline' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent);
    expect(items()).toEqual([
      expect.stringMatching(/by coach@studio\.test.*Override ended by staff: VOD \| BASIC$/),
      // The override's end in the console's one date format, like every other date on the page.
      expect.stringMatching(/by coach@studio\.test.*Override granted: VOD \| PREMIUM until Jan 21, 2027, 3:30\sPMInjury: free month$/),
    ]);
    await user.click(within(timeline).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(items()[2]).toMatch(/Attended a class: Vinyasa Flow$/);
    expect(timelineQueries.at(-1)!.get('before')).toBe('cursor-1');
    expect(within(timeline).queryByRole('button', { name: 'Load more' })).toBeNull();

    await user.click(within(timeline).getByRole('button', { name: 'Classes' }));
    expect(within(timeline).getByRole('button', { name: 'Classes' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(timelineQueries.at(-1)!.get('kinds')).toBe('visit'));
    await waitFor(() => expect(items()).toEqual([expect.stringMatching(/Attended a class: Vinyasa Flow$/)]));
  });
});

describe('notes and tags', () => {
  const note = (id: number, body: string, mine: boolean): Note => ({
    id,
    client_id: 7,
    body,
    author_email: mine ? 'admin@localhost' : 'desk@studio.test',
    created_at: '2026-11-20T09:00:00.000Z',
    updated_at: '2026-11-20T09:00:00.000Z',
    mine,
  });

  it('adds a note, lets the author alone edit and delete theirs, and sets tags from suggestions', async () => {
    const fake = fakeClientProfileServer({
      client: aClient({ _id: 7 }),
      notes: [note(1, 'Mine from before', true), note(2, 'Knee injury', false)],
      tags: ['early bird'],
      suggestions: ['vip', 'vegan'],
    });
    server.use(...fake.handlers);
    const { user } = renderApp('/client/7');
    const section = await screen.findByRole('region', { name: 'Notes and tags' });
    const notes = await within(section).findByRole('list', { name: 'Notes' });
    const [mine, theirs] = within(notes).getAllByRole('listitem');
    expect(within(theirs!).getByText('Knee injury')).toBeVisible();
    expect(within(theirs!).queryByRole('button', { name: /Edit|Delete/ })).toBeNull();
    expect(theirs).toHaveTextContent('desk@studio.test');

    await user.type(within(section).getByRole('textbox', { name: 'Add a note' }), 'Prefers mornings');
    await user.click(within(section).getByRole('button', { name: 'Add note' }));
    expect(await within(section).findByText('Prefers mornings')).toBeVisible();
    expect(fake.calls.notes).toEqual([{ method: 'POST', body: 'Prefers mornings' }]);

    await user.click(within(mine!).getByRole('button', { name: /^Edit the note of/ }));
    const field = within(mine!).getByRole('textbox', { name: 'Note' });
    await user.clear(field);
    await user.type(field, 'Mine, edited');
    await user.click(within(mine!).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByText('Mine, edited')).toBeVisible();
    const edited = within(section).getByText('Mine, edited').closest('li')!;
    await user.click(within(edited).getByRole('button', { name: /^Delete the note of/ }));
    await waitFor(() => expect(within(section).queryByText('Mine, edited')).toBeNull());
    expect(fake.calls.notes.slice(1)).toEqual([
      { method: 'PUT', id: 1, body: 'Mine, edited' },
      { method: 'DELETE', id: 1 },
    ]);

    const tags = within(section).getByRole('group', { name: 'Tags' });
    expect(within(tags).getByText('early bird')).toBeVisible();
    await user.click(within(tags).getByRole('button', { name: 'Edit tags' }));
    await user.type(within(section).getByRole('combobox', { name: 'Tags' }), 'vi');
    await user.click(await screen.findByRole('option', { name: 'vip' }));
    await user.click(within(section).getByRole('button', { name: 'Save tags' }));
    await waitFor(() => expect(fake.calls.tags).toEqual([['early bird', 'vip']]));
    expect(await within(within(section).getByRole('group', { name: 'Tags' })).findByText('vip')).toBeVisible();
  });

  it('turns the list filter "tag" into the API query', () => {
    const filter = clientFilterOf({ tag: ' VIP , early bird,<x>' });
    expect(filter).toEqual({ tag: ['vip', 'early bird'] });
    expect(pageSearch({ page: 1, perPage: 25, sort: { field: 'id', order: 'ASC' }, filter }).getAll('tag')).toEqual(['vip', 'early bird']);
  });
});

describe('at a glance', () => {
  it('sums the client up above the sections, the plan apart from the override', async () => {
    const fake = fakeClientProfileServer({ client: aClient({ _id: 7, admin_updated_expiration: '2026-12-10T12:00:00.000Z' }) });
    server.use(
      ...fake.handlers,
      http.get('*/api/admin/v1/clients/:id/glance', () =>
        HttpResponse.json({
          member_since: '2025-10-18T12:00:00.000Z',
          last_class: { at: '2026-11-19T18:00:00.000Z', name: 'Vinyasa Flow' },
          last_stream: null,
          level_name: 'VOD | PREMIUM',
          plan: { name: 'VOD | BASIC', product: 'basic_monthly', status: 'active', renews: true, ends_at: '2026-12-12T00:00:00.000Z' },
          override_ends_at: '2026-12-10T12:00:00.000Z',
          lifetime_purchases: 3,
          platforms: ['ios', 'ipad'],
          push_reachable: true,
          mindbody_status: 'Active',
          mindbody_linked: true,
          tags: ['vip'],
          phone: '(555) 010-2424',
          visits_total: 48,
          visits_30d: 6,
          days_since_last_visit: 3,
          total_spent_usd: 1234.5,
          last_app_open: '2026-11-21T07:05:00.000Z',
          upcoming_classes: [
            { at: '2026-11-24T18:00:00.000Z', name: 'Power HIIT' },
            { at: '2026-11-26T07:30:00.000Z', name: 'Barre Burn' },
          ],
        }),
      ),
    );
    renderApp('/client/7');
    const glance = await screen.findByRole('region', { name: 'At a glance' });
    const fact = (field: string) => glance.querySelector(`[data-field="${field}"]`)?.textContent;
    // One date format across the page (common/format.ts), in the studio's zone (UTC here).
    await waitFor(() => expect(fact('last_class')).toBe('Vinyasa Flow · Nov 19, 2026'));
    expect(fact('member_since')).toBe('Oct 18, 2025');
    expect(fact('last_stream')).toBe('—');
    expect(fact('plan')).toBe('VOD | BASICrenews Dec 12, 2026');
    expect(fact('override')).toBe('VOD | PREMIUM until Dec 10, 2026');
    // What the front desk looks for first.
    expect(within(glance).getByRole('link', { name: '(555) 010-2424' })).toHaveAttribute('href', 'tel:5550102424');
    expect(fact('visits')).toBe('48 in all · 6 in the last 30 days');
    expect(fact('last_visit')).toBe('3 days ago');
    expect(fact('total_spent')).toBe('$1,234.50');
    expect(fact('last_app_open')).toMatch(/^Nov 21, 2026, 7:05\sAM$/);
    expect(fact('upcoming')).toMatch(/^Power HIIT · Nov 24, 2026, 6:00\sPMBarre Burn · Nov 26, 2026, 7:30\sAM$/);
    expect(fact('app')).toBe('iPhone, iPadpush reaches them');
    expect(fact('mindbody')).toBe('Active');
    expect(within(glance).getByText('vip')).toBeVisible();
  });

  it('shows a client on an override without a plan as on an override, not as a plan of that level', async () => {
    const fake = fakeClientProfileServer({ client: aClient({ _id: 7, admin_updated_expiration: '2026-12-06T03:44:00.000Z' }) });
    server.use(
      ...fake.handlers,
      http.get('*/api/admin/v1/clients/:id/glance', () =>
        HttpResponse.json({ ...EMPTY_GLANCE, level_name: 'VOD | PREMIUM', override_ends_at: '2026-12-06T03:44:00.000Z' }),
      ),
    );
    renderApp('/client/7');
    const glance = await screen.findByRole('region', { name: 'At a glance' });
    const fact = (field: string) => glance.querySelector(`[data-field="${field}"]`)?.textContent;
    await waitFor(() => expect(fact('plan')).toBe('No plan: on an override'));
    expect(fact('override')).toBe('VOD | PREMIUM until Dec 6, 2026');
    expect(glance.textContent).not.toContain('No plan (VOD | PREMIUM)');
    expect(fact('visits')).toBe('0 in all · 0 in the last 30 days');
    expect(fact('last_visit')).toBe('never');
    expect(fact('total_spent')).toBe('none recorded');
    expect(fact('upcoming')).toBe('none booked');
  });
});
