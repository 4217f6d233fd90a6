import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import type { Client, Contract, OptionVideo } from '@contract/clients';
import type { PushRecord } from '@contract/clientActions';
import type { VideoOptionGroup } from '@contract/accessLevels';
import { server, signedIn } from '../support/msw';
import { fakeAutomationServer } from '../support/automationMsw';
import { renderApp } from './helpers/renderApp';
import { aClient } from './helpers/clientData';

const kim = aClient({ _id: 7 });
const OPTIONS: VideoOptionGroup[] = [
  { category: 'Yoga', video_options: [{ vimeo_video_id: '9001', title: 'Sunrise Yoga', instructor: 'Mara', duration: 1500 }] },
  { category: 'HIIT', video_options: [{ vimeo_video_id: '9002', title: 'HIIT Blast', instructor: null, duration: 45 }] },
];
const contract = (id: number, name: string): Contract => ({
  agreement_date: null,
  autopay_status: 'Active',
  contract_name: name,
  end_date: '2027-01-05T00:00:00.000Z',
  id,
  original_location_id: 1,
  start_date: '2026-01-05T00:00:00.000Z',
  site_id: -99,
  upcoming_autopay_events: [],
  contract_id: 101,
  termination_date: null,
});

interface Calls {
  favorites: unknown[];
  levels: unknown[];
  pushes: { body: unknown; key: string | null }[];
  syncs: string[];
}

/** The client page's reads plus the four actions; each action answers what the test passes. */
function actionServer(options: {
  client?: Client;
  favorites?: OptionVideo[];
  favoriteAnswer?: (body: { update_type: string }) => [JsonBodyType, number?];
  levelAnswer?: [JsonBodyType, number?];
  pushAnswer?: [JsonBodyType, number?];
  syncAnswer?: [JsonBodyType, number?];
  contracts?: Contract[][];
  pushes?: PushRecord[];
}) {
  const calls: Calls = { favorites: [], levels: [], pushes: [], syncs: [] };
  let client = options.client ?? kim;
  let favorites = options.favorites ?? [];
  let contractsServed = 0;
  server.use(
    signedIn(),
    ...fakeAutomationServer().handlers,
    http.get('*/api/admin/v1/audit', () => HttpResponse.json([], { headers: { 'content-range': 'audit */0' } })),
    http.get('*/api/client/v1/client-details/:siteId/:mbClientId/contracts', () => {
      const lists = options.contracts ?? [[]];
      return HttpResponse.json({ errors: [], contracts: lists[Math.min(contractsServed++, lists.length - 1)] });
    }),
    http.get('*/api/client/v1/client-details/:siteId/:mbClientId/purchases', () => HttpResponse.json({ errors: [], purchases: [] })),
    http.get('*/api/client/v1/client-details/:siteId/:mbClientId/:email/debug', () => HttpResponse.json({ debugInfo: [] })),
    http.get('*/api/client/v1/client-details/:id', () => HttpResponse.json({ client: [client] })),
    http.post('*/api/client/v1/client-details/recently-viewed-videos', () => HttpResponse.json({ videos: [] })),
    http.post('*/api/client/v1/client-details/favorites-videos', () => HttpResponse.json({ videos: favorites })),
    http.get('*/api/admin/v1/pushes', () => HttpResponse.json(options.pushes ?? [], { headers: { 'content-range': 'pushes */0' } })),
    http.get('*/api/client/v1/video-options/:level', () => HttpResponse.json({ videos: OPTIONS })),
    http.get('*/api/client/v1/vod-access-levels', () =>
      HttpResponse.json({
        levels: [
          { name: 'VOD | FREE', sort_order: 1 },
          { name: 'VOD | BASIC', sort_order: 2 },
          { name: 'VOD | PREMIUM', sort_order: 3 },
        ],
      }),
    ),
    http.post('*/api/client/v1/client-details/favorites-videos-update', async ({ request }) => {
      const body = (await request.json()) as { update_type: string; vimeo_video_id: string };
      calls.favorites.push(body);
      const [answer, status] = options.favoriteAnswer?.(body) ?? [{ errors: [] }];
      if (status === undefined && (answer as { errors: unknown[] }).errors.length === 0) {
        const option = OPTIONS.flatMap((g) => g.video_options).find((v) => v.vimeo_video_id === body.vimeo_video_id)!;
        favorites = body.update_type === 'add' ? [option, ...favorites] : favorites.filter((v) => v.vimeo_video_id !== body.vimeo_video_id);
      }
      return HttpResponse.json(answer, { status: status ?? 200 });
    }),
    http.post('*/api/client/v1/client-details/update-access-level', async ({ request }) => {
      const body = (await request.json()) as { new_vod_access_level: number; adminOverrideDate: string };
      calls.levels.push(body);
      const [answer, status] = options.levelAnswer ?? [null];
      if (answer === null) {
        client = { ...client, vod_access_level: body.new_vod_access_level, name: 'VOD | PREMIUM', admin_updated_expiration: body.adminOverrideDate };
        return HttpResponse.json({ errors: [], client });
      }
      return HttpResponse.json(answer, { status: status ?? 200 });
    }),
    http.post('*/api/client/v1/client-details/push-notification', async ({ request }) => {
      calls.pushes.push({ body: await request.json(), key: request.headers.get('idempotency-key') });
      const [answer, status] = options.pushAnswer ?? [{ updated: true, push_id: 1, results: [{ token: 't', outcome: 'sent' }] }];
      return HttpResponse.json(answer, { status: status ?? 200 });
    }),
    http.get('*/api/v1/sync/contracts/:siteId/:mbClientId', ({ params }) => {
      calls.syncs.push(`${String(params.siteId)}/${String(params.mbClientId)}`);
      const [answer, status] = options.syncAnswer ?? [{ errors: [], mbContracts: [] }];
      return HttpResponse.json(answer, { status: status ?? 200 });
    }),
  );
  return calls;
}

const section = (title: string) => screen.getByRole('region', { name: title });
const dialog = (name: string) => screen.findByRole('dialog', { name });
const gone = (name: string) => waitFor(() => expect(screen.queryByRole('dialog', { name })).toBeNull(), { timeout: 30_000 });

async function openClient(path = '/client/7') {
  const view = renderApp(path);
  await screen.findByLabelText('Client Details');
  // The actions appear once authProvider.canAccess has answered for the role.
  await screen.findByRole('button', { name: 'Send a push notification to client' });
  return view;
}

describe('client actions', () => {
  afterEach(() => vi.restoreAllMocks());

  describe("Add a video to client's favorites list", () => {
    const FAVORITES = "Add a video to client's favorites list";

    it("offers the level's videos by category, saves with category 30, shows Saved for 2 s, closes and refreshes the list", async () => {
      const calls = actionServer({});
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'View Favorites Videos' }));
      await user.click(within(section('Favorites Videos')).getByRole('button', { name: 'Add a Video' }));
      const modal = await dialog(FAVORITES);
      await user.click(within(modal).getByRole('combobox', { name: 'Video' }));
      const listbox = await screen.findByRole('listbox');
      expect(within(listbox).getByText('Yoga')).toBeVisible();
      expect(within(listbox).getByText('HIIT')).toBeVisible();
      expect(
        within(listbox)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Sunrise Yoga - COACH: Mara (25 MINUTE(S))', 'HIIT Blast (< 1 MINUTE(S))']);
      await user.click(within(listbox).getByRole('option', { name: 'Sunrise Yoga - COACH: Mara (25 MINUTE(S))' }));
      await user.click(within(modal).getByRole('button', { name: 'Save' }));

      expect(await within(modal).findByRole('status')).toHaveTextContent('Saved');
      expect(calls.favorites).toEqual([
        { vimeo_video_id: '9001', email_address: 'kim.park@studio.test', mb_client_id: '100777', video_category_id: 30, update_type: 'add' },
      ]);
      await gone(FAVORITES);
      expect(await within(section('Favorites Videos')).findByText('Sunrise Yoga')).toBeVisible();
    });

    it('shows Error for 2 s when the server answers errors, then closes', async () => {
      actionServer({ favoriteAnswer: () => [{ errors: [{ message: 'No video with Vimeo id 9002 in the library' }] }] });
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'Add a Video' }));
      const modal = await dialog(FAVORITES);
      await user.click(within(modal).getByRole('combobox', { name: 'Video' }));
      await user.click(await screen.findByRole('option', { name: 'HIIT Blast (< 1 MINUTE(S))' }));
      await user.click(within(modal).getByRole('button', { name: 'Save' }));
      expect(await within(modal).findByRole('status')).toHaveTextContent('Error');
      await gone(FAVORITES);
    });

    it('asks for a video before saving and sends nothing', async () => {
      const calls = actionServer({});
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'Add a Video' }));
      const modal = await dialog(FAVORITES);
      await user.click(within(modal).getByRole('button', { name: 'Save' }));
      expect(within(modal).getByText('Choose a video')).toBeVisible();
      expect(calls.favorites).toEqual([]);
    });

    it('does not offer a video that already is a favorite', async () => {
      actionServer({ favorites: [OPTIONS[0]!.video_options[0]!] });
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'View Favorites Videos' }));
      await within(section('Favorites Videos')).findByText('Sunrise Yoga');
      await user.click(screen.getByRole('button', { name: 'Add a Video' }));
      const modal = await dialog(FAVORITES);
      await user.click(within(modal).getByRole('combobox', { name: 'Video' }));
      const taken = await screen.findByRole('option', { name: /Sunrise Yoga.*already a favorite/ });
      expect(taken).toHaveAttribute('aria-disabled', 'true');
    });
  });

  describe('Remove favorite (undoable)', () => {
    const REMOVE_BODY = { vimeo_video_id: '9002', email_address: 'kim.park@studio.test', mb_client_id: '100777', video_category_id: 30, update_type: 'remove' };
    const removeHiit = async () => {
      const view = await openClient();
      await view.user.click(screen.getByRole('button', { name: 'View Favorites Videos' }));
      await view.user.click(await within(section('Favorites Videos')).findByRole('button', { name: 'Remove HIIT Blast' }));
      return view;
    };

    it('takes the favorite off the list at once with Undo in the toast, and removes it on the server once the toast closes', async () => {
      const calls = actionServer({ favorites: [OPTIONS[1]!.video_options[0]!] });
      const { user } = await removeHiit();
      expect(await within(section('Favorites Videos')).findByText('No records were found.')).toBeVisible();
      const toast = await screen.findByRole('alert');
      expect(toast).toHaveTextContent('Favorite removed: HIIT Blast');
      expect(within(toast).getByRole('button', { name: 'Undo' })).toBeVisible();
      expect(calls.favorites).toEqual([]);

      await user.click(within(toast).getByRole('button', { name: 'Close' }));
      await waitFor(() => expect(calls.favorites).toEqual([REMOVE_BODY]));
      expect(within(section('Favorites Videos')).getByText('No records were found.')).toBeVisible();
    });

    it('puts the favorite back with Undo and tells the server nothing', async () => {
      const calls = actionServer({ favorites: [OPTIONS[1]!.video_options[0]!] });
      const { user } = await removeHiit();
      const toast = await screen.findByRole('alert');
      await user.click(within(toast).getByRole('button', { name: 'Undo' }));
      expect(await within(section('Favorites Videos')).findByText('HIIT Blast')).toBeVisible();
      await waitFor(() => expect(screen.queryByText('Favorite removed: HIIT Blast')).toBeNull());
      expect(calls.favorites).toEqual([]);
    });

    it("toasts 'Error removing favorites video' and shows the favorite again when errors is not empty, and when the call fails", async () => {
      let failing = false;
      const calls = actionServer({
        favorites: [OPTIONS[1]!.video_options[0]!],
        favoriteAnswer: () => {
          failing = !failing;
          return failing ? [{ errors: [{ message: 'No client matches' }] }] : [{ message: 'boom' }, 500];
        },
      });
      const { user } = await removeHiit();
      await user.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Close' }));
      expect(await screen.findByText('Error removing favorites video')).toBeVisible();
      expect(await within(section('Favorites Videos')).findByText('HIIT Blast')).toBeVisible();
      await waitFor(() => expect(screen.queryByText('Error removing favorites video')).toBeNull(), { timeout: 30_000 });

      await user.click(within(section('Favorites Videos')).getByRole('button', { name: 'Remove HIIT Blast' }));
      await user.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Close' }));
      expect(await screen.findByText('Error removing favorites video')).toBeVisible();
      expect(await within(section('Favorites Videos')).findByText('HIIT Blast')).toBeVisible();
      expect(calls.favorites).toHaveLength(2);
    });
  });

  describe('Update Client VOD Access Level', () => {
    const LEVEL = 'Update Client VOD Access Level';

    it('sends the level and an end one week ahead, shows Saved, closes, and shows the override note', async () => {
      const calls = actionServer({});
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'Update VOD Access Level' }));
      const modal = await dialog(LEVEL);
      expect(within(modal).getByText('VOD | BASIC')).toBeVisible();
      await user.click(within(modal).getByRole('combobox', { name: 'New VOD Access Level' }));
      await user.click(await screen.findByRole('option', { name: 'VOD | PREMIUM' }));
      await user.click(within(modal).getByRole('combobox', { name: 'Override for' }));
      expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
        '24 Hours',
        '1 Week',
        '2 Weeks',
        '3 Weeks',
        '4 Weeks',
        'Until a date…',
      ]);
      const before = Date.now();
      await user.click(screen.getByRole('option', { name: '1 Week' }));
      expect(within(modal).getByText(/^Warning: Client will have new access level until /)).toBeVisible();
      await user.click(within(modal).getByRole('button', { name: 'Save' }));

      expect(await within(modal).findByRole('status')).toHaveTextContent('Saved');
      const sent = calls.levels[0] as { client_id: number; new_vod_access_level: number; adminOverrideDate: string };
      expect(sent).toMatchObject({ client_id: 7, new_vod_access_level: 3 });
      const days = (Date.parse(sent.adminOverrideDate) - before) / 86_400_000;
      expect(Math.round(days)).toBe(7);
      await gone(LEVEL);
      const summary = screen.getByLabelText('Client Details');
      expect(await within(summary).findByRole('note')).toHaveTextContent(/^Admin granted this Access Level until /);
      expect(summary.querySelector('[data-field="vod_access_level"]')).toHaveTextContent('VOD | PREMIUM');
    });

    it('shows Error for 2 s when the server refuses, then closes', async () => {
      actionServer({
        levelAnswer: [{ message: 'adminOverrideDate must be at most 28 days ahead', errors: [{ path: 'adminOverrideDate', message: 'x' }] }, 400],
      });
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'Update VOD Access Level' }));
      const modal = await dialog(LEVEL);
      await user.click(within(modal).getByRole('combobox', { name: 'New VOD Access Level' }));
      await user.click(await screen.findByRole('option', { name: 'VOD | FREE' }));
      await user.click(within(modal).getByRole('button', { name: 'Save' }));
      expect(await within(modal).findByRole('status')).toHaveTextContent('Error');
      await gone(LEVEL);
    });

    it('asks for a level before saving and sends nothing', async () => {
      const calls = actionServer({});
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'Update VOD Access Level' }));
      const modal = await dialog(LEVEL);
      await user.click(within(modal).getByRole('button', { name: 'Save' }));
      expect(within(modal).getByText('Choose a level')).toBeVisible();
      expect(calls.levels).toEqual([]);
    });
  });

  describe('Push Notification Directly to Client', () => {
    const PUSH = 'Push Notification Directly to Client';

    it('sends title and message with the client ids and an idempotency key, shows Sent, closes', async () => {
      const calls = actionServer({});
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'Send a push notification to client' }));
      const modal = await dialog(PUSH);
      await user.type(within(modal).getByRole('textbox', { name: 'Title' }), 'Great class!');
      await user.type(within(modal).getByRole('textbox', { name: 'Message' }), 'See you on Monday');
      await user.click(within(modal).getByRole('button', { name: 'Send' }));
      expect(await within(modal).findByRole('status')).toHaveTextContent('Sent');
      expect(calls.pushes).toEqual([
        {
          body: { notification: { title: 'Great class!', body: 'See you on Monday' }, mb_client_id: '100777', email_address: 'kim.park@studio.test' },
          key: expect.any(String),
        },
      ]);
      expect(calls.pushes[0]!.key!.length).toBeGreaterThanOrEqual(8);
      await gone(PUSH);
    });

    it('shows Error and the reason when no device got it, and keeps the text for another try', async () => {
      actionServer({ pushAnswer: [{ updated: false, message: 'The client has no device token', push_id: 3, results: [] }] });
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'Send a push notification to client' }));
      const modal = await dialog(PUSH);
      await user.type(within(modal).getByRole('textbox', { name: 'Message' }), 'Hello');
      await user.click(within(modal).getByRole('button', { name: 'Send' }));
      const status = await within(modal).findByRole('status');
      expect(status).toHaveTextContent('Error');
      expect(status).toHaveTextContent('The client has no device token');
      await gone(PUSH);
      await user.click(screen.getByRole('button', { name: 'Send a push notification to client' }));
      expect(within(await dialog(PUSH)).getByRole('textbox', { name: 'Message' })).toHaveValue('Hello');
    });

    it('shows Queued for retry and when, not Error, when FCM asked to wait', async () => {
      const message = 'FCM asked to wait (QUOTA_EXCEEDED): the push is queued and will be retried at 2026-11-22 12:01:04 UTC';
      actionServer({
        pushAnswer: [
          {
            updated: false,
            queued: true,
            message,
            push_id: 4,
            results: [{ token: 't', outcome: 'deferred', code: 'QUOTA_EXCEEDED', retry_at: '2026-11-22T12:01:04.000Z' }],
          },
        ],
      });
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'Send a push notification to client' }));
      const modal = await dialog(PUSH);
      await user.type(within(modal).getByRole('textbox', { name: 'Message' }), 'Hello');
      await user.click(within(modal).getByRole('button', { name: 'Send' }));
      const status = await within(modal).findByRole('status');
      expect(status).toHaveTextContent('Queued for retry');
      expect(status).toHaveTextContent(message);
      expect(status).not.toHaveTextContent('Error');
      await gone(PUSH);
    });

    it('shows Error when the call fails', async () => {
      actionServer({ pushAnswer: [{ message: 'Internal server error' }, 500] });
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'Send a push notification to client' }));
      const modal = await dialog(PUSH);
      await user.type(within(modal).getByRole('textbox', { name: 'Message' }), 'Hello');
      await user.click(within(modal).getByRole('button', { name: 'Send' }));
      expect(await within(modal).findByRole('status')).toHaveTextContent('Error');
    });

    it('requires a message and sends nothing without one', async () => {
      const calls = actionServer({});
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'Send a push notification to client' }));
      const modal = await dialog(PUSH);
      await user.type(within(modal).getByRole('textbox', { name: 'Title' }), 'Only a title');
      await user.click(within(modal).getByRole('button', { name: 'Send' }));
      expect(within(modal).getByText('* Message Required')).toBeVisible();
      expect(calls.pushes).toEqual([]);
    });

    it("lists the client's recent pushes with their result", async () => {
      actionServer({
        pushes: [
          {
            id: 2,
            client_id: 7,
            sent_by: 'coach@studio.test',
            source: 'console',
            title: 'Great class!',
            body: 'See you',
            status: 'sent',
            reason: null,
            results: [{ token: 'a', outcome: 'sent' }],
            created_at: '2026-11-21T10:00:00.000Z',
          },
          {
            id: 1,
            client_id: 7,
            sent_by: 'automated',
            source: 'missed-class',
            title: 'We missed you',
            body: 'Come back',
            status: 'no_token',
            reason: 'The client has no device token',
            results: [],
            created_at: '2026-11-20T10:00:00.000Z',
          },
        ],
      });
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'View Recent Push Notifications' }));
      const region = section('Recent Push Notifications');
      await within(region).findByText('Great class!');
      const rows = within(region)
        .getAllByRole('row')
        .slice(1)
        .map((row) =>
          within(row)
            .getAllByRole('cell')
            .map((cell) => cell.textContent),
        );
      expect(rows[0]!.slice(1)).toEqual(['Great class!', 'See you', 'coach@studio.test', 'Sent · 1 of 1 device(s)']);
      expect(rows[1]!.slice(1)).toEqual(['We missed you', 'Come back', 'Automated · Missed Class', 'No deviceThe client has no device token']);
    });
  });

  describe('Sync Client Contracts', () => {
    it("confirms, syncs, shows 'Sync Complete' and refreshes the contracts", async () => {
      const calls = actionServer({ contracts: [[contract(1, 'Old Plan')], [contract(2, 'Unlimited Monthly')]] });
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'View Contracts' }));
      const region = section('MindBody Contracts');
      await within(region).findByText('Old Plan');
      await user.click(within(region).getByRole('button', { name: 'Sync Contracts' }));
      const modal = await dialog('Sync Client Contracts');
      expect(within(modal).getByText(/uses MindBody API calls/)).toBeVisible();
      await user.click(within(modal).getByRole('button', { name: 'Confirm' }));
      expect(await within(region).findByRole('status')).toHaveTextContent('Sync Complete');
      expect(calls.syncs).toEqual(['-99/100777']);
      expect(await within(region).findByText('Unlimited Monthly')).toBeVisible();
      await waitFor(() => expect(within(region).queryByRole('status')).toBeNull(), { timeout: 30_000 });
    });

    it("shows 'Sync Failed' when the answer has errors or the call fails", async () => {
      actionServer({ syncAnswer: [{ errors: [{ message: 'Mindbody failed (500)' }], mbContracts: [] }] });
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'Sync Contracts' }));
      await user.click(within(await dialog('Sync Client Contracts')).getByRole('button', { name: 'Confirm' }));
      expect(await screen.findByText('Sync Failed')).toHaveAttribute('title', 'Mindbody failed (500)');

      server.use(http.get('*/api/v1/sync/contracts/:siteId/:mbClientId', () => HttpResponse.json({ message: 'No client' }, { status: 404 })));
      await waitFor(() => expect(screen.queryByText('Sync Failed')).toBeNull(), { timeout: 30_000 });
      await user.click(screen.getByRole('button', { name: 'Sync Contracts' }));
      await user.click(within(await dialog('Sync Client Contracts')).getByRole('button', { name: 'Confirm' }));
      expect(await screen.findByText('Sync Failed')).toBeVisible();
    });

    it('does nothing when cancelled', async () => {
      const calls = actionServer({});
      const { user } = await openClient();
      await user.click(screen.getByRole('button', { name: 'Sync Contracts' }));
      await user.click(within(await dialog('Sync Client Contracts')).getByRole('button', { name: 'Cancel' }));
      await gone('Sync Client Contracts');
      expect(calls.syncs).toEqual([]);
    });
  });
});
