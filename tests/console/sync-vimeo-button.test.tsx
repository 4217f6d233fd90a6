import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { AdminContext, memoryStore } from 'react-admin';
import { createAuthProvider } from '../../src/providers/authProvider';
import { createDataProvider } from '../../src/providers/dataProvider';
import { consoleAreas } from '../../src/areas';
import { i18nProvider } from '../../src/providers/i18nProvider';
import { Notification } from '../../src/layout/Notification';
import { SyncVimeoButton } from '../../src/videos/SyncVimeoButton';
import { server } from '../support/msw';
import { serverReachability } from '../../src/providers/serverReachability';

// An outage a test made ends with it: the console's reachability is one per page, as in a browser.
afterEach(() => serverReachability.answered());

const SYNC = '*/api/v1/sync/all-vimeo-videos';

const renderButton = () => {
  const redirect = vi.fn<(url: string) => void>();
  render(
    <AdminContext
      dataProvider={createDataProvider(consoleAreas())}
      authProvider={createAuthProvider({ redirect })}
      i18nProvider={i18nProvider}
      store={memoryStore()}
    >
      <SyncVimeoButton />
      <Notification />
    </AdminContext>,
  );
  return { redirect, user: userEvent.setup() };
};

describe('SyncVimeoButton', () => {
  it('starts the sync and says so in a closable success toast', async () => {
    const calls: string[] = [];
    server.use(
      http.get(SYNC, ({ request }) => {
        calls.push(`${request.method} ${new URL(request.url).pathname}`);
        return HttpResponse.json({ started: true });
      }),
    );
    const { user } = renderButton();

    await user.click(screen.getByRole('button', { name: 'Sync Vimeo videos' }));

    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Vimeo sync has started!');
    expect(toast).toHaveClass('RaNotification-success');
    expect(calls).toEqual(['GET /api/v1/sync/all-vimeo-videos']);

    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText('Vimeo sync has started!')).toBeNull());
  });

  it('says a sync is already running, in an info toast, when the server joined the running one', async () => {
    server.use(http.get(SYNC, () => HttpResponse.json({ started: false, already_running: true, sync: { id: 7, state: 'running' } })));
    const { user } = renderButton();

    await user.click(screen.getByRole('button', { name: 'Sync Vimeo videos' }));

    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('A Vimeo sync is already running.');
    // info is react-admin's plain style: neither the success nor the error colour
    expect(toast).not.toHaveClass('RaNotification-success');
    expect(toast).not.toHaveClass('RaNotification-error');
    expect(screen.queryByText('Vimeo sync has started!')).toBeNull();
    expect(screen.getByRole('button', { name: 'Close' })).toBeVisible();
  });

  it('says the sync failed to start when the server answers 500', async () => {
    server.use(http.get(SYNC, () => HttpResponse.json({ message: 'Vimeo is down' }, { status: 500 })));
    const { user, redirect } = renderButton();

    await user.click(screen.getByRole('button', { name: 'Sync Vimeo videos' }));

    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Vimeo sync failed to start.');
    expect(toast).toHaveClass('RaNotification-error');
    expect(screen.queryByText('Vimeo sync has started!')).toBeNull();
    expect(redirect).not.toHaveBeenCalled();
  });

  it("says when to try again while Vimeo's circuit breaker is open (503)", async () => {
    const message = 'Vimeo is unavailable right now after repeated failures; retry in 27 s.';
    server.use(http.get(SYNC, () => HttpResponse.json({ message }, { status: 503, headers: { 'retry-after': '27' } })));
    const { user } = renderButton();

    await user.click(screen.getByRole('button', { name: 'Sync Vimeo videos' }));

    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent(message);
    expect(toast).toHaveClass('RaNotification-error');
  });

  it('says the sync failed to start when the server cannot be reached', async () => {
    server.use(http.get(SYNC, () => HttpResponse.error()));
    const { user } = renderButton();

    await user.click(screen.getByRole('button', { name: 'Sync Vimeo videos' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Vimeo sync failed to start.');
  });

  it('sends the browser to the login page when the session has expired', async () => {
    server.use(http.get(SYNC, () => HttpResponse.json({ message: 'Unauthorized' }, { status: 401 })));
    const { user, redirect } = renderButton();

    await user.click(screen.getByRole('button', { name: 'Sync Vimeo videos' }));

    await waitFor(() => expect(redirect).toHaveBeenCalledExactlyOnceWith('/login'));
  });
});
