import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { QueryClient } from '@tanstack/react-query';
import { AdminContext, memoryStore } from 'react-admin';
import type { MindbodySyncStatus as Status } from '@contract/mindbody';
import { MindbodySyncStatus } from '../../src/clients/MindbodySyncStatus';
import { describeMindbodySync } from '../../src/clients/mindbodySync';
import { createAuthProvider } from '../../src/providers/authProvider';
import { createDataProvider } from '../../src/providers/dataProvider';
import { consoleAreas } from '../../src/areas';
import { i18nProvider } from '../../src/providers/i18nProvider';
import { server } from '../support/msw';

const STATUS = '*/api/admin/v1/mindbody/sync';
const SYNCED = '2026-11-22T12:00:00.000Z';

const status = (overrides: Partial<Status> = {}): Status => ({
  mode: 'live',
  last_synced_at: SYNCED,
  running: false,
  last_outcome: 'succeeded',
  last_error: null,
  calls_today: 0,
  daily_call_limit: 1000,
  visits_deferred: 0,
  sites: [],
  ...overrides,
});

const renderStatus = () => {
  const redirect = vi.fn<(url: string) => void>();
  render(
    <AdminContext
      dataProvider={createDataProvider(consoleAreas())}
      authProvider={createAuthProvider({ redirect })}
      i18nProvider={i18nProvider}
      store={memoryStore()}
      queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <MindbodySyncStatus />
    </AdminContext>,
  );
  return { redirect, user: userEvent.setup() };
};

describe('MindbodySyncStatus', () => {
  it('says when Mindbody was last synced', async () => {
    server.use(http.get(STATUS, () => HttpResponse.json(status())));
    renderStatus();
    expect(await screen.findByRole('status')).toHaveTextContent(`MindBody last synced Nov 22, 2026, 12:00 PM`);
  });

  it('says the last attempt failed, and why on hover', async () => {
    server.use(http.get(STATUS, () => HttpResponse.json(status({ last_outcome: 'failed', last_error: 'Mindbody rate limit reached (429): slow down' }))));
    const { user } = renderStatus();
    const line = await screen.findByRole('status');
    expect(line).toHaveTextContent(`MindBody last synced Nov 22, 2026, 12:00 PM · the last attempt failed`);
    await user.hover(line);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Mindbody rate limit reached (429): slow down');
  });

  it("shows the day's Mindbody calls against the limit, and how many clients' visits wait for another day", async () => {
    server.use(http.get(STATUS, () => HttpResponse.json(status({ calls_today: 1000, daily_call_limit: 1000, visits_deferred: 354 }))));
    renderStatus();
    expect(await screen.findByRole('status')).toHaveTextContent('(1,000 of 1,000 MindBody calls used today · visits of 354 clients wait for a later day)');
  });

  it('shows only the calls when nothing waits', async () => {
    server.use(http.get(STATUS, () => HttpResponse.json(status({ calls_today: 454 }))));
    renderStatus();
    const line = await screen.findByRole('status');
    expect(line).toHaveTextContent('(454 of 1,000 MindBody calls used today)');
    expect(line).not.toHaveTextContent('wait');
  });

  it('says when Mindbody has never been synced', async () => {
    server.use(http.get(STATUS, () => HttpResponse.json(status({ last_synced_at: null, last_outcome: null, mode: 'sandbox' }))));
    renderStatus();
    expect(await screen.findByRole('status')).toHaveTextContent('MindBody not synced yet');
  });

  it('sends the browser to the login page when the session has expired', async () => {
    server.use(http.get(STATUS, () => HttpResponse.json({ message: 'Authentication required' }, { status: 401 })));
    const { redirect } = renderStatus();
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('/login'));
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('describeMindbodySync', () => {
  it('picks the sentence for each state', () => {
    expect(describeMindbodySync(status())).toMatchObject({ key: 'mindbody_sync.synced', tone: 'ok' });
    expect(describeMindbodySync(status({ running: true, last_outcome: 'running' }))).toMatchObject({ key: 'mindbody_sync.running', tone: 'running' });
    expect(describeMindbodySync(status({ running: true, last_synced_at: null }))).toMatchObject({ key: 'mindbody_sync.running_first' });
    expect(describeMindbodySync(status({ last_outcome: 'failed', last_error: 'x' }))).toEqual({
      key: 'mindbody_sync.failed',
      syncedAt: SYNCED,
      tone: 'failed',
      detail: 'x',
    });
    expect(describeMindbodySync(status({ last_outcome: 'failed', last_synced_at: null }))).toMatchObject({ key: 'mindbody_sync.failed_first' });
    expect(describeMindbodySync(status({ last_outcome: null, last_synced_at: null }))).toEqual({
      key: 'mindbody_sync.never',
      syncedAt: null,
      tone: 'never',
      detail: null,
    });
  });
});
