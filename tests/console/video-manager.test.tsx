import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, type RequestHandler } from 'msw';
import { memoryStore } from 'react-admin';
import { App } from '../../src/App';
import { createAuthProvider } from '../../src/providers/authProvider';
import { server, signedIn } from '../support/msw';
import { sync, video, videoBackend } from './videoBackend';

// Undoable saves go out when react-admin's notification closes (about 4 s).
const SAVE_WAIT = { timeout: 30_000 };

const renderVideos = (backend: ReturnType<typeof videoBackend>, path = '/videos', overrides: RequestHandler[] = []) => {
  server.use(signedIn(), ...overrides, ...backend.handlers);
  window.history.pushState(null, '', path);
  render(<App authProvider={createAuthProvider({ redirect: vi.fn() })} store={memoryStore()} />);
  return userEvent.setup();
};

const rowOf = async (title: string) => (await screen.findByText(title)).closest('tr')!;

const library = () =>
  videoBackend([
    video(1, 'Alpha Flow', { enabled: true, access_level_id: 2 }),
    video(2, 'Beta Burn', { enabled: false, access_level_id: 3, vimeo_missing_since: '2026-11-20T10:00:00.000Z' }),
  ]);

// The whole console renders in jsdom and undoable saves wait for their notification: slower than most.
const SLOW = { timeout: 180_000 };

describe('Video Manager', SLOW, () => {
  it('shows the spec columns, preset from the data, paged and sorted on the server', async () => {
    const backend = library();
    renderVideos(backend);

    expect(await screen.findByRole('heading', { level: 1, name: 'Video Manager' })).toBeVisible();
    // The list renders once authProvider.canAccess has answered.
    for (const name of ['Video Thumbnail', 'Video Title', 'Enabled', 'Access Level', 'Actions']) {
      expect(await screen.findByRole('columnheader', { name: new RegExp(name) })).toBeVisible();
    }
    const alpha = await rowOf('Alpha Flow');
    expect(alpha.querySelector('img')).toHaveAttribute('src', 'https://img.test/1.jpg');
    expect(alpha.querySelector('img')).toHaveStyle({ width: '150px' });
    expect(within(alpha).getByRole('switch', { name: 'Enabled: Alpha Flow' })).toBeChecked();
    expect(within(alpha).getByRole('combobox', { name: 'Access Level: Alpha Flow' })).toHaveTextContent('VOD | BASIC');
    const beta = await rowOf('Beta Burn');
    expect(within(beta).getByRole('switch')).not.toBeChecked();
    expect(within(beta).getByRole('combobox')).toHaveTextContent('VOD | PREMIUM');
    expect(within(beta).getByText('Gone from Vimeo')).toBeVisible();
    expect(within(alpha).getByRole('button', { name: 'Delete' })).toBeVisible();
    expect(within(alpha).getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/videos/1');

    const list = backend.calls.find((call) => call.path === '/api/admin/v1/videos')!;
    expect(list.query).toEqual({ sort: ['title', 'ASC'], range: [0, 24], filter: {} });
  });

  it('lists the videos as cards on a phone, each opening its edit page with Enter', async () => {
    window.innerWidth = 390;
    try {
      const user = renderVideos(library());
      const alpha = await screen.findByRole('link', { name: /Alpha Flow/ });
      expect(alpha).toHaveAttribute('href', '/videos/1');
      expect(alpha).toHaveTextContent('VOD | BASIC · Enabled');
      expect(screen.getByRole('link', { name: /Beta Burn/ })).toHaveTextContent('VOD | PREMIUM · Disabled · Gone from Vimeo');
      expect(screen.queryByRole('columnheader')).toBeNull();
      alpha.focus();
      await user.keyboard('{Enter}');
      expect(await screen.findByRole('heading', { level: 1, name: 'Edit video' })).toBeVisible();
    } finally {
      window.innerWidth = 1024;
    }
  });

  it("lists the spec's GET /api/client/v1/videos when the backend has no /api/admin/v1 extension", async () => {
    const specOnly = [
      http.get('*/api/admin/v1/videos', () => HttpResponse.json({ message: 'Route GET:/api/admin/v1/videos not found' }, { status: 404 })),
      http.get('*/api/client/v1/videos', () =>
        HttpResponse.json({
          videos: [
            { id: 7, title: 'Zumba Party', thumbnail_url: 'https://img.test/7.jpg', enabled: false, access_level_id: 3 },
            { id: 8, title: 'Core Crusher', thumbnail_url: null, enabled: true, access_level_id: 1 },
          ],
        }),
      ),
    ];
    renderVideos(videoBackend([]), '/videos', specOnly);
    const zumba = await rowOf('Zumba Party');
    expect(within(zumba).getByRole('switch', { name: 'Enabled: Zumba Party' })).not.toBeChecked();
    expect(within(zumba).getByRole('combobox')).toHaveTextContent('VOD | PREMIUM');
    const titles = screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).queryByText(/Zumba Party|Core Crusher/)?.textContent);
    expect(titles).toEqual(['Core Crusher', 'Zumba Party']);
  });

  it('saves the Enabled switch at once, with an undoable notification', async () => {
    const backend = library();
    const user = renderVideos(backend);
    const toggle = within(await rowOf('Alpha Flow')).getByRole('switch');

    await user.click(toggle);

    expect(toggle).not.toBeChecked();
    expect(await screen.findByText('Video disabled')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Undo' })).toBeVisible();
    await waitFor(() => expect(backend.saves()).toEqual([expect.objectContaining({ path: '/api/admin/v1/videos/1', body: { enabled: false } })]), SAVE_WAIT);
    expect(toggle).not.toBeChecked();
  });

  it('sends nothing when the change is undone', async () => {
    const backend = library();
    const user = renderVideos(backend);
    const toggle = within(await rowOf('Alpha Flow')).getByRole('switch');

    await user.click(toggle);
    await user.click(await screen.findByRole('button', { name: 'Undo' }));

    await waitFor(() => expect(toggle).toBeChecked());
    await waitFor(() => expect(screen.queryByText('Video disabled')).toBeNull());
    expect(backend.saves()).toEqual([]);
  });

  it('puts the switch back and says so when the save fails', async () => {
    const backend = library();
    backend.failNextSave(500, { message: 'Internal server error' });
    const user = renderVideos(backend);
    const toggle = within(await rowOf('Alpha Flow')).getByRole('switch');

    await user.click(toggle);

    expect(await screen.findByText('Could not save "Alpha Flow" (Internal server error); it is back as it was.', {}, SAVE_WAIT)).toBeVisible();
    expect(within(await rowOf('Alpha Flow')).getByRole('switch')).toBeChecked();
  });

  it('saves the Access Level dropdown at once', async () => {
    const backend = library();
    const user = renderVideos(backend);

    await user.click(within(await rowOf('Alpha Flow')).getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: 'VOD | PREMIUM' }));

    expect(within(await rowOf('Alpha Flow')).getByRole('combobox')).toHaveTextContent('VOD | PREMIUM');
    expect(await screen.findByText('Access level set to VOD | PREMIUM')).toBeVisible();
    await waitFor(() => expect(backend.saves().map((call) => call.body)).toEqual([{ access_level_id: 3 }]), SAVE_WAIT);
  });

  it('deletes only after confirmation, and restores from Show deleted', async () => {
    const backend = library();
    const user = renderVideos(backend);

    await user.click(within(await rowOf('Alpha Flow')).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Delete "Alpha Flow"?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(backend.calls.filter((call) => call.method === 'DELETE')).toEqual([]);

    await user.click(within(await rowOf('Alpha Flow')).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Video deleted')).toBeVisible();
    await waitFor(() => expect(screen.queryByText('Alpha Flow')).toBeNull());
    expect(backend.calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual(['/api/admin/v1/videos/1']);

    await user.click(screen.getByRole('switch', { name: 'Show deleted' }));
    await user.click(within(await rowOf('Alpha Flow')).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText('Video restored')).toBeVisible();
    expect(backend.saves().map((call) => call.body)).toEqual([{ deleted_at: null }]);
  });

  it('filters by title on the server', async () => {
    const backend = library();
    const user = renderVideos(backend);
    await rowOf('Alpha Flow');

    await user.type(screen.getByPlaceholderText('Search titles'), 'beta');

    await waitFor(() => expect(screen.queryByText('Alpha Flow')).toBeNull());
    expect(screen.getByText('Beta Burn')).toBeVisible();
    expect(backend.calls.at(-1)!.query.filter).toEqual({ q: 'beta' });
  });
});

describe('Video edit form', SLOW, () => {
  it('checks the required fields before sending anything', async () => {
    const backend = library();
    const user = renderVideos(backend, '/videos/1');
    const title = await screen.findByRole('textbox', { name: 'Title' });
    await waitFor(() => expect(title).toHaveValue('Alpha Flow'));

    await user.clear(title);
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('A video needs a title.')).toBeVisible();
    expect(backend.saves()).toEqual([]);
  });

  it('saves title, instructor, category, access level and enabled, then goes back to the list', async () => {
    const backend = library();
    const user = renderVideos(backend, '/videos/1');
    const title = await screen.findByRole('textbox', { name: 'Title' });
    await waitFor(() => expect(title).toHaveValue('Alpha Flow'));

    await user.clear(title);
    await user.type(title, 'Alpha Flow Deluxe');
    await user.clear(screen.getByRole('textbox', { name: 'Instructor' }));
    await user.type(screen.getByRole('textbox', { name: 'Instructor' }), 'Jordan Kim');
    await user.click(screen.getByRole('combobox', { name: 'Category' }));
    await user.click(await screen.findByRole('option', { name: 'HIIT' }));
    await user.click(screen.getByRole('combobox', { name: 'Access Level' }));
    await user.click(await screen.findByRole('option', { name: 'VOD | FREE' }));
    await user.click(screen.getByRole('switch', { name: 'Enabled' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Video saved')).toBeVisible();
    expect(await screen.findByRole('heading', { level: 1, name: 'Video Manager' })).toBeVisible();
    expect(backend.saves()[0]!.body).toMatchObject({
      title: 'Alpha Flow Deluxe',
      instructor: 'Jordan Kim',
      category_id: 2,
      access_level_id: 1,
      enabled: false,
    });
    expect(await screen.findByText('Alpha Flow Deluxe')).toBeVisible();
  });

  it("shows the server's objection next to the field and stays on the form", async () => {
    const backend = library();
    backend.failNextSave(400, {
      message: 'Invalid request: body.title: at most 200 characters',
      errors: [{ path: 'body.title', message: 'at most 200 characters' }],
    });
    const user = renderVideos(backend, '/videos/1');
    const title = await screen.findByRole('textbox', { name: 'Title' });
    await waitFor(() => expect(title).toHaveValue('Alpha Flow'));

    await user.type(title, '!');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('at most 200 characters')).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: 'Edit video' })).toBeVisible();
  });
});

describe('Vimeo sync progress on the Video Manager', SLOW, () => {
  it('follows a running sync until it finishes, then shows the outcome and reloads the list', async () => {
    let finished = false;
    const backend = videoBackend([video(1, 'Alpha Flow')], {
      syncs: () => [
        finished
          ? sync({ state: 'done' })
          : sync({ state: 'running', pages_done: 2, pages_total: 4, videos_seen: 80, videos_added: 3, videos_updated: 1, finished_at: null }),
      ],
    });
    renderVideos(backend);

    const status = await screen.findByRole('status', { name: 'Vimeo sync' });
    await waitFor(() => expect(status).toHaveTextContent('Vimeo sync running: 2 of 4 pages read · 80 videos · 3 added · 1 updated'));
    expect(within(status).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');
    const listLoads = () => backend.calls.filter((call) => call.path === '/api/admin/v1/videos').length;
    const before = listLoads();

    finished = true;
    await waitFor(() => expect(status).toHaveTextContent(/Last Vimeo sync finished .*: 151 videos · 6 added · 9 updated · 5 newly gone from Vimeo/));
    expect(within(status).queryByRole('progressbar')).toBeNull();
    await waitFor(() => expect(listLoads()).toBeGreaterThan(before));
  });

  it('says why the last sync failed', async () => {
    const backend = videoBackend([video(1, 'Alpha Flow')], {
      syncs: () => [sync({ state: 'failed', error: 'Vimeo failed 5 times in a row on page 3 (last: HTTP 503); the sync stopped there.' })],
    });
    renderVideos(backend);
    const status = await screen.findByRole('status', { name: 'Vimeo sync' });
    await waitFor(() => expect(status).toHaveTextContent('Vimeo failed 5 times in a row on page 3 (last: HTTP 503); the sync stopped there.'));
  });
});
