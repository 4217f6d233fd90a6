import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { AUDIT_ACTIONS, type AuditEntry } from '@contract/audit';
import { en } from '../../src/i18n/en';
import { changeLines, formatValue, humanizeField, targetMessage, type ValueNames } from '../../src/audit/auditFormat';
import { cleanFilter } from '../../src/audit/auditData';
import { server, signedIn } from '../support/msw';
import { renderApp } from './helpers/renderApp';

const entry = (overrides: Partial<AuditEntry>): AuditEntry => ({
  id: 1,
  at: '2026-11-21T10:15:00.000Z',
  staff_user_id: 1,
  staff_email: 'coach@studio.test',
  action: 'video.update',
  target_type: 'video',
  target_id: '12',
  client_id: null,
  before: { access_level_id: 1 },
  after: { access_level_id: 3 },
  ip: '203.0.113.9',
  ...overrides,
});

const ENTRIES = [
  entry({
    id: 3,
    action: 'client.override_grant',
    target_type: 'client',
    target_id: '77',
    client_id: 77,
    before: { vod_access_level: 1 },
    after: { vod_access_level: 3, until: '2026-12-01' },
  }),
  entry({ id: 2, action: 'message.create', target_type: 'message', target_id: '5', before: null, after: { title: 'We missed you' } }),
  entry({ id: 4, action: 'video.update', at: '2026-11-20T10:15:00.000Z' }),
  entry({
    id: 1,
    action: 'auth.sign_in_failed',
    staff_user_id: null,
    staff_email: 'who@else.test',
    target_type: 'staff_user',
    target_id: null,
    before: null,
    after: { reason: 'unknown account' },
  }),
];

/** Serves the audit list; records each query's filter, sort and range. */
function auditServer(rows = ENTRIES) {
  const queries: { filter: Record<string, unknown>; sort: unknown; range: unknown }[] = [];
  const exports: Record<string, unknown>[] = [];
  server.use(
    signedIn(),
    http.get('*/api/admin/v1/audit-staff', () =>
      HttpResponse.json(
        [
          { id: 1, email: 'coach@studio.test', nickname: 'coach' },
          { id: 2, email: 'desk@studio.test', nickname: 'desk' },
        ],
        { headers: { 'content-range': 'staff 0-1/2' } },
      ),
    ),
    http.get('*/api/client/v1/vod-access-levels', () =>
      HttpResponse.json({
        levels: [
          { name: 'VOD | FREE', sort_order: 1 },
          { name: 'VOD | BASIC', sort_order: 2 },
          { name: 'VOD | PREMIUM', sort_order: 3 },
        ],
      }),
    ),
    http.get('*/api/admin/v1/audit/export', ({ request }) => {
      exports.push(JSON.parse(new URL(request.url).searchParams.get('filter') ?? '{}'));
      return new HttpResponse('id,at\r\n3,2026-11-21T10:15:00.000Z\r\n', { headers: { 'content-type': 'text/csv' } });
    }),
    http.get('*/api/admin/v1/audit', ({ request }) => {
      const params = new URL(request.url).searchParams;
      const filter = JSON.parse(params.get('filter') ?? '{}') as Record<string, unknown>;
      queries.push({ filter, sort: JSON.parse(params.get('sort') ?? 'null'), range: JSON.parse(params.get('range') ?? 'null') });
      const shown = rows.filter(
        (row) => (filter.action ? row.action === filter.action : true) && (filter.staff_email ? row.staff_email === filter.staff_email : true),
      );
      return HttpResponse.json(shown, { headers: { 'content-range': shown.length ? `audit 0-${shown.length - 1}/${shown.length}` : 'audit */0' } });
    }),
  );
  return { queries, exports };
}

describe('audit log helpers', () => {
  it('lists each changed field with both sides, or only the new/old side for creations/removals', () => {
    expect(changeLines({ before: { title: 'A', enabled: true }, after: { title: 'B', enabled: false } })).toEqual([
      { field: 'title', before: 'A', after: 'B' },
      { field: 'enabled', before: 'true', after: 'false' },
    ]);
    expect(changeLines({ before: null, after: { title: 'New' } })).toEqual([{ field: 'title', after: 'New' }]);
    expect(changeLines({ before: { title: 'Old' }, after: null })).toEqual([{ field: 'title', before: 'Old' }]);
    expect(formatValue(null)).toBe('—');
    expect(formatValue({ a: 1 })).toBe('{"a":1}');
  });

  it('puts values in words: levels by name, yes/no, dates in one format, lists joined', () => {
    const names: ValueNames = {
      yes: 'Yes',
      no: 'No',
      videoLevel: (id) => ({ 1: 'VOD | FREE', 3: 'VOD | PREMIUM' })[id],
      clientLevel: (order) => ({ 2: 'VOD | BASIC' })[order],
      dateTime: (iso) => `moment ${iso.slice(0, 10)}`,
      date: (day) => `day ${day}`,
      browser: (userAgent) => `browser of ${userAgent}`,
    };
    expect(changeLines({ before: { access_level_id: 1, enabled: true }, after: { access_level_id: 3, enabled: false } }, names)).toEqual([
      { field: 'access_level_id', before: 'VOD | FREE', after: 'VOD | PREMIUM' },
      { field: 'enabled', before: 'Yes', after: 'No' },
    ]);
    expect(formatValue(2, 'vod_access_level', names)).toBe('VOD | BASIC');
    expect(formatValue(9, 'vod_access_level', names)).toBe('9');
    expect(formatValue('2026-12-01T15:00:00.000Z', 'admin_updated_expiration', names)).toBe('moment 2026-12-01');
    expect(formatValue('2026-12-01', 'until', names)).toBe('day 2026-12-01');
    expect(formatValue(['Mindbody is down', 'try later'], 'errors', names)).toBe('Mindbody is down, try later');
    // A level id is a number only for the level fields.
    expect(formatValue(3, 'contracts', names)).toBe('3');
    expect(formatValue('Mozilla/5.0', 'user_agent', names)).toBe('browser of Mozilla/5.0');
  });

  it('has words for every action the server records (the action filter lists them all)', () => {
    const words: Record<string, string> = en.audit.actions;
    expect(AUDIT_ACTIONS.filter((action) => !words[action])).toEqual([]);
  });

  it('names fields it has no words for from their spelling', () => {
    expect(humanizeField('delay_minutes')).toBe('Delay minutes');
    expect(humanizeField('category_id')).toBe('Category');
    expect(humanizeField('x')).toBe('X');
  });

  it('names targets, falling back to type and id for kinds it does not know', () => {
    expect(targetMessage({ target_type: 'video', target_id: '12' })).toEqual(['audit.targets.video', { id: '12' }]);
    expect(targetMessage({ target_type: 'favorite_list', target_id: '9' })).toEqual(['audit.targets.other', { type: 'Favorite list', id: '9' }]);
  });

  it('drops empty filter values before they reach the server', () => {
    expect(cleanFilter({ action: '', staff_email: null, client_id: 7, from: undefined })).toEqual({ client_id: 7 });
  });
});

describe('Audit Log screen', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists entries newest first with who, what, target, client and before → after', async () => {
    const { queries } = auditServer();
    renderApp('/audit');
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
    const grant = (await screen.findByText('Granted an access level override')).closest('tr')!;
    expect(within(grant).getByText('coach@studio.test')).toBeVisible();
    expect(within(grant).getByRole('link', { name: 'Client #77' })).toHaveAttribute('href', '/client/77');
    // Field names and levels in words, dates in the console's one format.
    expect(await within(grant).findByTitle('VOD access level: VOD | FREE → VOD | PREMIUM')).toBeVisible();
    expect(within(grant).getByTitle('Until: — → Dec 1, 2026')).toBeVisible();
    expect(within(grant).getByText(/^Nov 21, 2026, \d{1,2}:15 [AP]M$/)).toBeVisible();

    const added = screen.getByText('Added a push message').closest('tr')!;
    expect(within(added).getByText('created')).toBeVisible();
    expect(within(added).getByTitle('Title: We missed you')).toBeVisible();
    expect(within(screen.getByText('Edited a video').closest('tr')!).getByRole('link', { name: 'Video #12' })).toHaveAttribute('href', '/videos/12');
    expect(within(screen.getByText('Failed sign-in').closest('tr')!).getByText('who@else.test')).toBeVisible();
    expect(queries[0]).toMatchObject({ sort: ['at', 'DESC'], range: [0, 24] });
  });

  it('reads as one card per entry on a phone, in words', async () => {
    window.innerWidth = 390;
    try {
      auditServer();
      renderApp('/audit');
      const grant = (await screen.findByText('Granted an access level override')).closest('li')!;
      expect(screen.queryByRole('columnheader')).toBeNull();
      expect(within(grant).getByText(/^Nov 21, 2026/)).toBeVisible();
      expect(within(grant).getByText(/coach@studio\.test/)).toBeVisible();
      expect(within(grant).getByRole('link', { name: 'Client #77' })).toHaveAttribute('href', '/client/77');
      expect(await within(grant).findByTitle('VOD access level: VOD | FREE → VOD | PREMIUM')).toBeVisible();
    } finally {
      window.innerWidth = 1024;
    }
  });

  it('filters by action and by staff member through the server', async () => {
    const { queries } = auditServer();
    const { user } = renderApp('/audit');
    await screen.findByText('Granted an access level override');

    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'Added a push message' }));
    await waitFor(() => expect(queries.at(-1)!.filter).toEqual({ action: 'message.create' }));
    await waitFor(() => expect(screen.queryByText('Granted an access level override')).toBeNull());

    await user.click(screen.getByRole('combobox', { name: 'Staff member' }));
    await user.click(await screen.findByRole('option', { name: 'desk@studio.test' }));
    await waitFor(() => expect(queries.at(-1)!.filter).toEqual({ action: 'message.create', staff_email: 'desk@studio.test' }));
    expect(await screen.findByText('No staff actions match these filters.')).toBeVisible();
  });

  it('filters by client and date range', async () => {
    const { queries } = auditServer();
    const { user } = renderApp('/audit');
    await screen.findByText('Granted an access level override');
    await user.type(screen.getByRole('spinbutton', { name: 'Client ID' }), '77');
    await waitFor(() => expect(queries.at(-1)!.filter).toEqual({ client_id: 77 }));
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await waitFor(() => expect(queries.at(-1)!.filter).toEqual({ client_id: 77, from: '2026-11-01' }));
  });

  it('exports the filtered log as CSV from the server', async () => {
    const { exports } = auditServer();
    const createObjectURL = vi.fn(() => 'blob:audit');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { user } = renderApp('/audit?filter=%7B%22action%22%3A%22video.update%22%7D');
    await screen.findByRole('heading', { level: 1, name: 'Audit Log' });
    await user.click(await screen.findByRole('button', { name: 'Export' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(exports).toEqual([{ action: 'video.update' }]);
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    expect(await blob.text()).toContain('3,2026-11-21T10:15:00.000Z');
  });

  it('is in the sidebar', async () => {
    auditServer();
    renderApp('/audit');
    expect(await screen.findByRole('link', { name: 'Audit Log' })).toHaveAttribute('href', '/audit');
  });
});
