import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { memoryStore } from 'react-admin';
import { App } from '../../src/App';
import { createAuthProvider } from '../../src/providers/authProvider';
import { deferred, jsonAnswer, server, signedIn, signedOut, testUser } from '../support/msw';
import { videoBackend } from './videoBackend';

const dashboardCalls = () => [
  jsonAnswer('/api/stats/v1', { errors: [], result: { subscribers: 10, daily_plays: 2, most_popular: 'Yoga' } }),
  jsonAnswer('/api/admin/v1/stats/trends', { daily_plays: [], paid_subscribers: [] }),
];

const renderApp = (path = '/', store = memoryStore()) => {
  server.use(...dashboardCalls());
  window.history.pushState(null, '', path);
  // Pages load their own data; the shell tests only need those calls answered (tests/console/dashboard
  // covers what the dashboard does with its own).
  server.use(http.get('*/api/client/v1/messaging/:typeId', () => HttpResponse.json({ messages: [] })));
  const redirect = vi.fn<(url: string) => void>();
  const authProvider = createAuthProvider({ redirect });
  const logout = vi.spyOn(authProvider, 'logout');
  const view = render(<App authProvider={authProvider} store={store} />);
  return { ...view, redirect, logout, user: userEvent.setup() };
};

// react-admin may leave an empty wrapper <div>: no text, no image, no control, nothing to see.
const expectNothingRendered = (container: HTMLElement) => {
  expect(container.textContent).toBe('');
  expect(container.querySelectorAll('*')).toHaveLength(container.querySelectorAll(':empty').length);
};

const menuItem = (name: string) => screen.getByRole('menuitem', { name });

describe('App shell', () => {
  it('renders nothing until the authentication check answers, then the sidebar', async () => {
    const answerSent = deferred();
    const release = deferred();
    server.use(
      http.get('*/api/isAuthenticated', async () => {
        answerSent.resolve();
        await release.promise;
        return HttpResponse.json({ isAuthenticated: true, user: testUser });
      }),
    );
    const { container } = renderApp();

    await answerSent.promise;
    expectNothingRendered(container);

    release.resolve();
    expect(await screen.findByRole('menuitem', { name: 'Dashboard' })).toBeVisible();
  });

  it('shows Dashboard and the three groups with all their entries', async () => {
    server.use(signedIn());
    renderApp();
    await screen.findByRole('menuitem', { name: 'Dashboard' });

    for (const group of ['Messaging', 'Video Manager', 'Clients']) {
      expect(menuItem(group)).toHaveAttribute('aria-expanded', 'true');
    }
    const entries = {
      Messaging: ['High Five', 'Missed Class', '#notetoself', 'Monday Morning', 'Cancelled Class', 'Extended Absense'],
      'Video Manager': ['Sync Vimeo videos'],
      Clients: ['All Clients', 'New Clients', 'Active Clients'],
    };
    for (const [group, names] of Object.entries(entries)) {
      const list = screen.getByRole('group', { name: group });
      expect(within(list).getAllByRole('menuitem').map((item) => item.textContent)).toEqual(names);
    }
    expect(menuItem('High Five')).toHaveAttribute('href', '/messaging/high-fives');
    expect(menuItem('Extended Absense')).toHaveAttribute('href', '/messaging/extended-absense');
    expect(menuItem('New Clients')).toHaveAttribute('href', '/clients/new');
    // Spec §2: neither /videos nor the MindBody list has a sidebar link.
    expect(menuItem('Video Manager')).not.toHaveAttribute('href');
    expect(document.querySelector('a[href="/videos"], a[href="/clients/mindbody"]')).toBeNull();
  });

  it('collapses and expands a group when its header is clicked', async () => {
    server.use(signedIn());
    const { user } = renderApp();
    await screen.findByRole('menuitem', { name: 'Dashboard' });
    expect(menuItem('High Five')).toBeVisible();

    await user.click(menuItem('Messaging'));

    expect(menuItem('Messaging')).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(screen.queryByRole('menuitem', { name: 'High Five' })).toBeNull());
    expect(screen.getByText('High Five')).not.toBeVisible();
    expect(menuItem('All Clients')).toBeVisible();

    await user.click(menuItem('Messaging'));

    expect(menuItem('Messaging')).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(menuItem('High Five')).toBeVisible());
  });

  it('shows the signed-in user in the footer, whose menu logs out through the server', async () => {
    server.use(signedIn());
    const { user, redirect } = renderApp();

    const footer = (await screen.findByText(testUser.nickname)).closest('footer')!;
    expect(within(footer).getByText(testUser.email)).toBeVisible();
    expect(within(footer).getByRole('img', { name: testUser.nickname })).toHaveAttribute('src', testUser.picture);

    await user.click(within(footer).getByRole('button', { name: 'User menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));

    expect(redirect).toHaveBeenCalledExactlyOnceWith('/logout');
  });

  it('opens a page from the sidebar', async () => {
    server.use(signedIn());
    const { user } = renderApp();
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });

    await user.click(menuItem('Extended Absense'));

    expect(await screen.findByRole('heading', { level: 1, name: 'Push Messaging - Extended Absense' })).toBeVisible();
    expect(window.location.pathname).toBe('/messaging/extended-absense');
  });

  it.each([
    ['/', 'Dashboard'],
    ['/dashboard', 'Dashboard'],
    ['/videos', 'Video Manager'],
    ['/messaging/high-fives', 'Push Messaging - High Five'],
    ['/messaging/missed-class', 'Push Messaging - Missed Class'],
    ['/messaging/notetoself', 'Push Messaging - #notetoself'],
    ['/messaging/monday-morning', 'Push Messaging - Monday Morning'],
    ['/messaging/cancelled-class', 'Push Messaging - Cancelled Class'],
    ['/messaging/extended-absense', 'Push Messaging - Extended Absense'],
    ['/clients/all', 'Clients - All'],
    ['/clients/mindbody', 'Clients - MindBody'],
    ['/clients/active', 'Clients - Active'],
    ['/clients/new', 'Clients - New'],
    ['/client/5f1d7c0e9a?search=customers', 'Client Details'],
  ])('%s shows the page titled %s', async (path, title) => {
    // Pages that load data get empty answers: this test is about titles.
    server.use(
      signedIn(),
      ...videoBackend([]).handlers,
      http.get('*/api/client/v1/clients/:listId', () => HttpResponse.json({ clients: [] })),
      http.get('*/api/client/v1/client-details/:id', () => HttpResponse.json({ message: 'No client with that id' }, { status: 404 })),
    );
    renderApp(path);

    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeVisible();
    // The same title in the AppBar and in the browser tab.
    await waitFor(() => expect(document.getElementById('react-admin-title')).toHaveTextContent(title));
    expect(document.title).toBe(`${title} · Studio Console`);
  });

  it('titles the app as a management console', async () => {
    server.use(signedIn());
    renderApp();
    const banner = await screen.findByRole('banner');
    await waitFor(() => expect(banner).toHaveTextContent('Studio Console · Management Console'));
  });

  it('switches between the light and the dark theme from the header, and remembers the choice', async () => {
    server.use(signedIn());
    const store = memoryStore();
    const { user } = renderApp('/', store);
    const toggle = within(await screen.findByRole('banner')).getByRole('button', { name: 'Toggle light/dark mode' });
    // The page background of src/layout/themes.ts: light #f6f7f9, dark #1b1d21.
    const background = () => getComputedStyle(document.body).backgroundColor;
    expect(background()).toBe('rgb(246, 247, 249)');

    await user.click(toggle);
    await waitFor(() => expect(background()).toBe('rgb(27, 29, 33)'));
    expect(store.getItem('theme')).toBe('dark');

    await user.click(toggle);
    await waitFor(() => expect(background()).toBe('rgb(246, 247, 249)'));
    expect(store.getItem('theme')).toBe('light');
  });

  it('renders nothing and sends the browser to the login page when signed out', async () => {
    server.use(signedOut());
    const { container, redirect, logout } = renderApp('/clients/new');

    await waitFor(() => expect(redirect).toHaveBeenCalled());
    // react-admin then logs out: that must not replace the login redirect with /logout.
    await waitFor(() => expect(logout).toHaveBeenCalled());

    expect(redirect.mock.calls).toEqual([['/login']]);
    expectNothingRendered(container);
  });
});
