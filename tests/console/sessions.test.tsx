import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { StaffSession } from '@contract/sessions';
import { describeUserAgent } from '../../src/sessions/userAgent';
import { dashboardCalls, server, signedIn } from '../support/msw';
import { renderApp } from './helpers/renderApp';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

const session = (overrides: Partial<StaffSession>): StaffSession => ({
  id: 'aaaa',
  created_at: '2026-11-22T08:00:00.000Z',
  last_seen_at: '2026-11-22T09:00:00.000Z',
  expires_at: '2026-11-22T09:30:00.000Z',
  ip: '203.0.113.5',
  user_agent: FIREFOX,
  current: true,
  ...overrides,
});

function sessionServer(initial: StaffSession[]) {
  let sessions = [...initial];
  const deleted: string[] = [];
  let endOthers = 0;
  server.use(
    signedIn(),
    // The user menu loads on first use, so the dashboard behind it may have asked for its figures.
    ...dashboardCalls(),
    http.get('*/api/admin/v1/sessions', () =>
      HttpResponse.json(sessions, { headers: { 'content-range': sessions.length ? `sessions 0-${sessions.length - 1}/${sessions.length}` : 'sessions */0' } }),
    ),
    http.delete('*/api/admin/v1/sessions/:id', ({ params }) => {
      const target = sessions.find((s) => s.id === params.id);
      if (!target) return HttpResponse.json({ message: 'That session has already ended.' }, { status: 404 });
      deleted.push(String(params.id));
      sessions = sessions.filter((s) => s.id !== params.id);
      return HttpResponse.json(target);
    }),
    http.post('*/api/admin/v1/sessions/end-others', () => {
      endOthers++;
      const ended = sessions.filter((s) => !s.current).length;
      sessions = sessions.filter((s) => s.current);
      return HttpResponse.json({ ended });
    }),
  );
  return { deleted, endOthersCalls: () => endOthers };
}

describe('describeUserAgent', () => {
  it('names browser and system', () => {
    expect(describeUserAgent(FIREFOX)).toBe('Firefox on Linux');
    expect(describeUserAgent(SAFARI)).toBe('Safari on iOS');
    expect(describeUserAgent('curl/8.0')).toBe('curl/8.0');
    expect(describeUserAgent(null)).toBeNull();
  });
});

describe('My sessions', () => {
  it('is reached from the user menu and lists sessions with this one marked', async () => {
    sessionServer([session({}), session({ id: 'bbbb', user_agent: SAFARI, current: false, ip: '198.51.100.7' })]);
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'My sessions' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'My sessions' })).toBeVisible();
    const rows = (await screen.findAllByRole('row')).slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Firefox on Linux')).toBeVisible();
    expect(within(rows[0]!).getByText('This session')).toBeVisible();
    expect(within(rows[1]!).getByText('Safari on iOS')).toBeVisible();
    expect(within(rows[1]!).getByText('198.51.100.7')).toBeVisible();
    expect(within(rows[1]!).queryByText('This session')).toBeNull();
  });

  it('ends another session and drops it from the list', async () => {
    const { deleted } = sessionServer([session({}), session({ id: 'bbbb', user_agent: SAFARI, current: false })]);
    const { user } = renderApp('/sessions');
    await user.click(await screen.findByRole('button', { name: 'End the session on Safari on iOS' }));
    await waitFor(() => expect(screen.queryByText('Safari on iOS')).toBeNull());
    expect(deleted).toEqual(['bbbb']);
    expect(await screen.findByText('Session ended')).toBeVisible();
  });

  it('shows a card per session on a phone, each endable', async () => {
    window.innerWidth = 390;
    try {
      const { deleted } = sessionServer([session({}), session({ id: 'bbbb', user_agent: SAFARI, current: false, ip: '198.51.100.7' })]);
      const { user } = renderApp('/sessions');
      const safari = (await screen.findByText('Safari on iOS')).closest('li')!;
      expect(screen.queryByRole('table')).toBeNull();
      expect(within(safari).getByText('198.51.100.7')).toBeVisible();
      expect(within(safari).getByText(/^Last seen Nov 22, 2026/)).toBeVisible();
      expect(within(screen.getByText('Firefox on Linux').closest('li')!).getByText('This session')).toBeVisible();
      await user.click(within(safari).getByRole('button', { name: 'End the session on Safari on iOS' }));
      await waitFor(() => expect(deleted).toEqual(['bbbb']));
    } finally {
      window.innerWidth = 1024;
    }
  });

  it('ends every other session at once, then has nothing left to end', async () => {
    const { endOthersCalls } = sessionServer([
      session({}),
      session({ id: 'b', current: false, user_agent: SAFARI }),
      session({ id: 'c', current: false, user_agent: 'curl/8.0' }),
    ]);
    const { user } = renderApp('/sessions');
    await screen.findByText('Safari on iOS');
    await user.click(screen.getByRole('button', { name: 'End all other sessions' }));
    expect(await screen.findByText('2 other sessions ended')).toBeVisible();
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'End all other sessions' })).toBeDisabled();
    expect(endOthersCalls()).toBe(1);
  });

  it('ending this session signs this browser out', async () => {
    sessionServer([session({})]);
    const { user, redirect } = renderApp('/sessions');
    await user.click(await screen.findByRole('button', { name: 'End the session on Firefox on Linux' }));
    await waitFor(() => expect(redirect).toHaveBeenCalled());
  });
});
