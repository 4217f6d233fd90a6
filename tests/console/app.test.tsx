import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { memoryStore } from 'react-admin';
import { App } from '../../src/App';
import { createAuthProvider } from '../../src/providers/authProvider';
import { dashboardCalls, deferred, server, signedIn, signedOut, testUser } from '../support/msw';
import { videoBackend } from './videoBackend';
import { fakeAutomationServer } from '../support/automationMsw';

const renderApp = (path = '/', store = memoryStore()) => {
  server.use(...dashboardCalls());
  window.history.pushState(null, '', path);
  // Pages load their own data; the shell tests only need those calls answered (tests/console/dashboard
  // covers what the dashboard does with its own).
  server.use(
    http.get('*/api/client/v1/messaging/:typeId', () => HttpResponse.json({ messages: [] })),
    ...fakeAutomationServer().handlers,
  );
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

// The sidebar is links and disclosure buttons (WAI-ARIA disclosure navigation), not an application menu.
const navLink = (name: string) => screen.getByRole('link', { name });
const groupHeader = (name: string) => screen.getByRole('button', { name });

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
    expect(await screen.findByRole('link', { name: 'Dashboard' })).toBeVisible();
  });

  it('shows Dashboard and the three groups with all their entries', async () => {
    server.use(signedIn());
    renderApp();
    await screen.findByRole('link', { name: 'Dashboard' });

    for (const group of ['Messaging', 'Video Manager', 'Clients']) {
      expect(groupHeader(group)).toHaveAttribute('aria-expanded', 'true');
    }
    const entries = {
      Messaging: ['High Five', 'Missed Class', '#notetoself', 'Monday Morning', 'Cancelled Class', 'Extended Absense'],
      // Ours: the video list's link above the spec's sync button, so every role that edits videos reaches it.
      'Video Manager': ['All Videos', 'Sync Vimeo videos'],
      // The spec's three, then ours: the at-risk list, saved segments (none here), New segment, Broadcasts, Overrides.
      Clients: ['All Clients', 'New Clients', 'Active Clients', 'At risk', 'New segment', 'Broadcasts', 'Overrides'],
    };
    for (const [group, names] of Object.entries(entries)) {
      const list = screen.getByRole('group', { name: group });
      const items = group === 'Video Manager' ? [...list.querySelectorAll('a, button')] : within(list).getAllByRole('link');
      expect(items.map((item) => item.textContent)).toEqual(names);
    }
    expect(navLink('High Five')).toHaveAttribute('href', '/messaging/high-fives');
    expect(navLink('Extended Absense')).toHaveAttribute('href', '/messaging/extended-absense');
    expect(navLink('New Clients')).toHaveAttribute('href', '/clients/new');
    // The MindBody list has no sidebar link; the group header is no link either.
    expect(groupHeader('Video Manager')).not.toHaveAttribute('href');
    expect(navLink('All Videos')).toHaveAttribute('href', '/videos');
    expect(document.querySelector('a[href="/clients/mindbody"]')).toBeNull();
  });

  it('collapses and expands a group when its header is clicked', async () => {
    server.use(signedIn());
    const { user } = renderApp();
    await screen.findByRole('link', { name: 'Dashboard' });
    expect(navLink('High Five')).toBeVisible();

    await user.click(groupHeader('Messaging'));

    expect(groupHeader('Messaging')).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'High Five' })).toBeNull());
    expect(screen.getByText('High Five')).not.toBeVisible();
    expect(navLink('All Clients')).toBeVisible();

    await user.click(groupHeader('Messaging'));

    expect(groupHeader('Messaging')).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(navLink('High Five')).toBeVisible());
  });

  it('reaches every sidebar entry with Tab, group headers and the sync button included, and opens a group with Enter or Space', async () => {
    server.use(signedIn());
    const { user } = renderApp();
    await screen.findByRole('link', { name: 'Dashboard' });
    const reached: string[] = [];
    navLink('Dashboard').focus();
    for (let i = 0; i < 15; i += 1) {
      reached.push(document.activeElement?.textContent ?? '');
      await user.tab();
    }
    expect(reached).toEqual([
      'Dashboard',
      // Under the dashboard for the roles that may read revenue (an owner, here).
      'Revenue',
      'Messaging',
      'High Five',
      'Missed Class',
      '#notetoself',
      'Monday Morning',
      'Cancelled Class',
      'Extended Absense',
      'Video Manager',
      'All Videos',
      'Sync Vimeo videos',
      'Clients',
      'All Clients',
      'New Clients',
    ]);
    expect(groupHeader('Sync Vimeo videos').tagName).toBe('BUTTON');

    groupHeader('Clients').focus();
    await user.keyboard('{Enter}');
    expect(groupHeader('Clients')).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard(' ');
    expect(groupHeader('Clients')).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(navLink('All Clients')).toBeVisible());
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

    // The sidebar's entries come one commit after the page (src/layout/AfterThePage.tsx).
    await user.click(await screen.findByRole('link', { name: 'Extended Absense' }));

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

  it('answers an unknown path with a readable not-found page that leads home', async () => {
    server.use(signedIn());
    const { user } = renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    expect(screen.getByText('Either you typed a wrong URL, or you followed a bad link.')).toBeVisible();
    expect(document.body.textContent).not.toContain('..');
    await user.click(screen.getByRole('link', { name: 'Go to the dashboard' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
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

    // Told where to come back to after signing in.
    expect(redirect.mock.calls).toEqual([['/login?next=%2Fclients%2Fnew']]);
    expectNothingRendered(container);
  });
});
