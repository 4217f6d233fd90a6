import { Component, Suspense, type ReactNode } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdminContext, memoryStore, useNotify } from 'react-admin';
import { chunkRecovery, lazyChunk, retryFailedChunks } from '../../src/common/chunks';
import { en } from '../../src/i18n/en';
import { Notification } from '../../src/layout/Notification';
import { ErrorPage, RouteErrorScreen } from '../../src/layout/ErrorPage';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { server, signedIn } from '../support/msw';
import { renderApp } from './helpers/renderApp';

// A deploy removed the old build's files: the Audit Log's chunk and the snackbar's cannot be fetched.
const GONE = 'Failed to fetch dynamically imported module: http://localhost/assets/AuditList-0ld.js';
vi.mock('../../src/audit/AuditList', () => {
  throw new TypeError(GONE);
});
vi.mock('../../src/layout/NotificationSnackbar', () => {
  throw new TypeError(GONE);
});

const original = { ...chunkRecovery };
let served: string | undefined;
let storage: Map<string, string>;

beforeEach(() => {
  retryFailedChunks();
  served = '/assets/index-0ld.js';
  storage = new Map();
  chunkRecovery.wait = async () => undefined;
  chunkRecovery.reload = vi.fn();
  chunkRecovery.runningVersion = () => '/assets/index-0ld.js';
  chunkRecovery.servedVersion = async () => served;
  chunkRecovery.storage = () => ({ getItem: (key: string) => storage.get(key) ?? null, setItem: (key: string, value: string) => void storage.set(key, value) });
});
afterEach(() => Object.assign(chunkRecovery, original));

class Boundary extends Component<{ children: ReactNode }, { error?: Error }> {
  state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    return this.state.error ? <ErrorPage error={this.state.error} resetErrorBoundary={() => this.setState({ error: undefined })} /> : this.props.children;
  }
}

describe('a part of the console whose code cannot be fetched', { timeout: 240_000 }, () => {
  it('shows the console’s own page with Reload, never a developer screen, when the server serves the same version', async () => {
    server.use(signedIn());
    renderApp('/audit');
    // The whole console's first render in jsdom is slow on a busy machine.
    expect(await screen.findByRole('heading', { name: en.app.error.chunk_title }, { timeout: 60_000 })).toBeInTheDocument();
    expect(screen.getByText(en.app.error.chunk_text)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: en.app.error.reload })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: en.app.error.retry })).toBeInTheDocument();
    expect(screen.queryByText(/Unexpected Application Error|Hey developer|A client error occurred/)).not.toBeInTheDocument();
    // The rest of the console still works: the sidebar is there.
    expect(screen.getAllByRole('link', { name: en.menu.dashboard }).length).toBeGreaterThan(0);
    expect(chunkRecovery.reload).not.toHaveBeenCalled();
  });

  it('moves to a newly deployed version by reloading once, and not again for the same version', async () => {
    server.use(signedIn());
    served = '/assets/index-n3w.js';
    const first = renderApp('/audit');
    await waitFor(() => expect(chunkRecovery.reload).toHaveBeenCalledTimes(1), { timeout: 60_000 });
    // While the page reloads nothing is shown in its place.
    expect(screen.queryByRole('heading', { name: en.app.error.chunk_title })).not.toBeInTheDocument();
    expect(storage.get('studio-console.reloaded-for-version')).toBe('/assets/index-n3w.js');
    first.unmount();
    // The reloaded page still cannot fetch its code (a broken deploy): it says so instead of reloading forever.
    const Reloaded = lazyChunk(() => Promise.reject(new TypeError(GONE)));
    render(
      <Boundary>
        <Suspense fallback={null}>
          <Reloaded />
        </Suspense>
      </Boundary>,
    );
    expect(await screen.findByRole('heading', { name: en.app.error.chunk_title })).toBeInTheDocument();
    expect(chunkRecovery.reload).toHaveBeenCalledTimes(1);
  });

  it('fetches the code again: a download that fails once is retried, and Try again asks anew', async () => {
    /** A part whose first `failures` downloads fail; counts the downloads. */
    const flaky = (failures: number, text: string) => {
      const part = { calls: 0 };
      const Part = lazyChunk(async () => {
        part.calls += 1;
        if (part.calls <= failures) throw new TypeError(GONE);
        return { default: () => <p>{text}</p> };
      });
      render(
        <Boundary>
          <Suspense fallback={null}>
            <Part />
          </Suspense>
        </Boundary>,
      );
      return part;
    };
    const retried = flaky(2, 'Audit rows');
    expect(await screen.findByText('Audit rows')).toBeInTheDocument();
    expect(retried.calls).toBe(3);

    const later = flaky(5, 'Broadcast list');
    await userEvent.click(await screen.findByRole('button', { name: en.app.error.retry }));
    expect(await screen.findByText('Broadcast list')).toBeInTheDocument();
    expect(later.calls).toBe(6);
  });

  it('goes on without the snackbar when its code cannot be fetched', async () => {
    const Notifier = () => {
      const notify = useNotify();
      return <button onClick={() => notify('Search failed')}>notify</button>;
    };
    render(
      <AdminContext store={memoryStore()}>
        <Notifier />
        <Notification />
      </AdminContext>,
    );
    await act(async () => screen.getByRole('button', { name: 'notify' }).click());
    await waitFor(() => expect(screen.getByRole('button', { name: 'notify' })).toBeInTheDocument());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText(/Unexpected Application Error|Hey developer/)).not.toBeInTheDocument();
  });

  it('answers anything that fails outside a page with the router’s error screen in the console’s words, with Reload', async () => {
    const Broken = () => {
      throw new Error('render failed');
    };
    const router = createMemoryRouter([{ path: '*', errorElement: <RouteErrorScreen />, element: <Broken /> }]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: en.app.error.title })).toBeInTheDocument();
    expect(screen.getByText(en.app.error.text)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: en.app.error.reload })).toBeInTheDocument();
    expect(screen.queryByText(/Unexpected Application Error|Hey developer|render failed/)).not.toBeInTheDocument();
  });
});
