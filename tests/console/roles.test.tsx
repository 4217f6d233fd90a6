import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { ROLE_PERMISSIONS, type Role } from '@contract/permissions';
import type { StatsResponse, StatsTrendsResponse } from '@contract/stats';
import { jsonAnswer, server, signedIn, testUser } from '../support/msw';
import { fakeAutomationServer } from '../support/automationMsw';
import { renderApp } from './helpers/renderApp';
import { aClient } from './helpers/clientData';
import { categoryVideosPath, VIDEO_PLAYS_PATH } from '../../src/dashboard/statsRules';

const STATS: StatsResponse = { errors: [], result: { subscribers: 1200, daily_plays: 340, most_popular: 'Yoga' } };
const TRENDS: StatsTrendsResponse = { daily_plays: [], paid_subscribers: [] };
const REFUSED =
  "Your role (front_desk) does not allow this: it needs the 'clients.override' permission (grant or end an access-level override, favorites changes). Ask an owner to change your role.";

const as = (role: Role) => signedIn({ ...testUser, role, permissions: [...ROLE_PERMISSIONS[role]] });

const dashboard = () => [
  jsonAnswer('/api/stats/v1', STATS),
  jsonAnswer('/api/admin/v1/stats/trends', TRENDS),
  // The most popular category's card links to that category, looked up by name.
  http.get('*/api/admin/v1/video-categories', () => HttpResponse.json([{ id: 4, name: 'Yoga' }], { headers: { 'content-range': 'video-categories 0-0/1' } })),
];

const kim = aClient({ _id: 7 });
const clientPage = () => [
  ...fakeAutomationServer().handlers,
  http.get('*/api/client/v1/client-details/:id', () => HttpResponse.json({ client: [kim] })),
  http.get('*/api/client/v1/client-details/:siteId/:mbClientId/contracts', () => HttpResponse.json({ errors: [], contracts: [] })),
  http.get('*/api/client/v1/client-details/:siteId/:mbClientId/purchases', () => HttpResponse.json({ errors: [], purchases: [] })),
  http.get('*/api/client/v1/client-details/:siteId/:mbClientId/:email/debug', () => HttpResponse.json({ debugInfo: [] })),
  http.post('*/api/client/v1/client-details/recently-viewed-videos', () => HttpResponse.json({ videos: [] })),
  http.post('*/api/client/v1/client-details/favorites-videos', () =>
    HttpResponse.json({ videos: [{ vimeo_video_id: '9001', title: 'Sunrise Yoga', instructor: 'Mara', duration: 1500 }] }),
  ),
  http.get('*/api/admin/v1/pushes', () => HttpResponse.json([], { headers: { 'content-range': 'pushes */0' } })),
  http.get('*/api/admin/v1/audit', () => HttpResponse.json([], { headers: { 'content-range': 'audit */0' } })),
];

const nav = () => screen.getByRole('navigation', { name: 'Main' });
// Group headers are disclosure buttons, single entries links (the sidebar is site navigation).
const GROUPS = ['Messaging', 'Video Manager', 'Clients'];
const entryRole = (name: string) => (GROUPS.includes(name) ? 'button' : 'link');
const inMenu = (name: string) => within(nav()).queryByRole(entryRole(name), { name }) !== null;
const MENU = ['Messaging', 'Video Manager', 'Clients', 'Audit Log', 'Staff'];
const requestedPaths = () => {
  const paths: string[] = [];
  server.events.on('request:start', ({ request }) => void paths.push(new URL(request.url).pathname));
  return paths;
};
const card = (label: string) => screen.getByRole('heading', { name: label }).closest<HTMLElement>('[data-stat-state]')!;

describe('the console follows the role', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ['owner', ['Messaging', 'Video Manager', 'Clients', 'Audit Log', 'Staff']],
    ['manager', ['Messaging', 'Video Manager', 'Clients', 'Audit Log']],
    ['front_desk', ['Clients']],
    ['content', ['Video Manager']],
  ] as const)('shows a %s only the menu entries the role may use', async (role, shown) => {
    server.use(as(role), ...dashboard());
    renderApp('/');
    await within(await screen.findByRole('navigation', { name: 'Main' })).findByRole('link', { name: 'Dashboard' });
    // The allowed entries appear once authProvider.canAccess has answered; then the rest must be absent.
    for (const name of shown) await within(nav()).findByRole(entryRole(name), { name });
    expect(MENU.filter(inMenu)).toEqual(shown);
  });

  it.each([
    ['owner', ['At risk', 'New segment', 'Broadcasts', 'Overrides']],
    ['manager', ['At risk', 'New segment', 'Broadcasts', 'Overrides']],
    // No 'segments.edit' (the shared segments) and no 'messaging.edit' (broadcasts): neither entry.
    ['front_desk', ['At risk']],
  ] as const)("shows a %s only the Clients group's entries it may use", async (role, shown) => {
    server.use(
      as(role),
      ...dashboard(),
      http.get('*/api/admin/v1/segments', () => HttpResponse.json([], { headers: { 'content-range': 'segments */0' } })),
    );
    renderApp('/');
    const group = await screen.findByRole('group', { name: 'Clients' });
    for (const name of shown) await within(group).findByRole('link', { name });
    const ours = ['At risk', 'New segment', 'Broadcasts', 'Overrides'];
    expect(ours.filter((name) => within(group).queryByRole('link', { name }) !== null)).toEqual(shown);
  });

  it('gives the content role a way to the video list from the sidebar', async () => {
    server.use(as('content'), ...dashboard());
    renderApp('/');
    const group = await screen.findByRole('group', { name: 'Video Manager' });
    expect(await within(group).findByRole('link', { name: 'All Videos' })).toHaveAttribute('href', '/videos');
  });

  it("links a content editor's dashboard cards only to what they may open", async () => {
    server.use(as('content'), ...dashboard());
    renderApp('/');
    await screen.findByRole('heading', { name: 'Total VOD Subscribers' });
    await waitFor(() => expect(within(card('Avg. Video Plays (Daily)')).getByRole('link')).toHaveAttribute('href', VIDEO_PLAYS_PATH));
    await waitFor(() => expect(within(card('Most Popular Category')).getByRole('link')).toHaveAttribute('href', categoryVideosPath(4)));
    expect(within(card('Total VOD Subscribers')).queryByRole('link')).toBeNull();
  });

  it('shows a content editor who opens a client list by its address that it is not for their role, asking the server nothing', async () => {
    server.use(as('content'));
    const paths = requestedPaths();
    renderApp('/clients/all');
    expect(await screen.findByText('Access denied')).toBeVisible();
    expect(paths.filter((path) => path.startsWith('/api/client/'))).toEqual([]);
  });

  it('shows the front desk the push and contract sync, not the override, favorites changes or history', async () => {
    server.use(as('front_desk'), ...clientPage());
    const { user } = renderApp('/client/7');
    expect(await screen.findByRole('button', { name: 'Send a push notification to client' })).toBeVisible();
    await screen.findByLabelText('Client Details');
    expect(screen.queryByRole('button', { name: 'Update VOD Access Level' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'History' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'View Contracts' }));
    expect(await screen.findByRole('button', { name: 'Sync Contracts' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'View Favorites Videos' }));
    expect(await screen.findByText('Sunrise Yoga')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Add a Video' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Remove Sunrise Yoga/ })).toBeNull();
  });

  it('says why when the server refuses anyway (a role changed since the page loaded)', async () => {
    // The console still believes this account may override; the server knows better.
    server.use(
      as('manager'),
      ...clientPage(),
      http.get('*/api/client/v1/vod-access-levels', () =>
        HttpResponse.json({
          levels: [
            { id: 1, name: 'VOD | FREE', sort_order: 1, is_paid: false },
            { id: 3, name: 'VOD | PREMIUM', sort_order: 3, is_paid: true },
          ],
        }),
      ),
      http.post('*/api/client/v1/client-details/update-access-level', () => HttpResponse.json({ message: REFUSED }, { status: 403 })),
    );
    const { user, redirect } = renderApp('/client/7');
    await user.click(await screen.findByRole('button', { name: 'Update VOD Access Level' }));
    const modal = await screen.findByRole('dialog');
    await user.click(within(modal).getByRole('combobox', { name: /Access Level/i }));
    await user.click(await screen.findByRole('option', { name: 'VOD | PREMIUM' }));
    await user.click(within(modal).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(REFUSED)).toBeVisible();
    // Still signed in: a refusal is not a sign-out.
    expect(redirect).not.toHaveBeenCalled();
  });

  it('keeps the staff screen from a manager', async () => {
    server.use(as('manager'), ...dashboard());
    const paths = requestedPaths();
    renderApp('/staff');
    expect(await screen.findByText('Access denied')).toBeVisible();
    expect(paths.filter((path) => path.startsWith('/api/admin/v1/staff'))).toEqual([]);
  });
});
