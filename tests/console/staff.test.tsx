import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { ROLE_PERMISSIONS } from '@contract/permissions';
import type { StaffAccount } from '@contract/staff';
import { jsonAnswer, server, signedIn, testUser } from '../support/msw';
import { renderApp } from './helpers/renderApp';

const LAST_OWNER = 'There must always be at least one active owner: make another account an owner first.';

const account = (overrides: Partial<StaffAccount>): StaffAccount => ({
  id: 1,
  email: 'admin@localhost',
  nickname: 'admin',
  role: 'owner',
  status: 'active',
  last_sign_in_at: '2026-11-20T09:15:00.000Z',
  created_at: '2026-01-01T00:00:00.000Z',
  has_password: true,
  signs_in_with_oidc: false,
  two_step: false,
  ...overrides,
});

const ACCOUNTS = [
  account({}),
  account({ id: 2, email: 'desk@studio.test', nickname: 'desk', role: 'front_desk', last_sign_in_at: null, two_step: true }),
  account({ id: 3, email: 'gone@studio.test', nickname: 'gone', role: 'content', status: 'disabled' }),
];

/** The staff API for an owner; records what the console sent. */
function staffServer() {
  const sent: { method: string; path: string; body?: unknown }[] = [];
  const record = async (request: Request) => {
    const body =
      request.method === 'GET'
        ? undefined
        : await request
            .clone()
            .json()
            .catch(() => undefined);
    sent.push({ method: request.method, path: new URL(request.url).pathname, body });
  };
  server.use(
    signedIn({ ...testUser, role: 'owner', permissions: [...ROLE_PERMISSIONS.owner] }),
    jsonAnswer('/api/stats/v1', { errors: [], result: { subscribers: 1, daily_plays: 1, most_popular: 'Yoga' } }),
    jsonAnswer('/api/admin/v1/stats/trends', { daily_plays: [], paid_subscribers: [] }),
    http.get('*/api/admin/v1/staff', () => HttpResponse.json(ACCOUNTS, { headers: { 'content-range': 'staff 0-2/3' } })),
    http.get('*/api/admin/v1/staff/:id', ({ params }) => HttpResponse.json(ACCOUNTS.find((row) => String(row.id) === params.id))),
    http.post('*/api/admin/v1/staff', async ({ request }) => {
      await record(request);
      const body = (await request.json()) as { email: string; role: StaffAccount['role'] };
      return HttpResponse.json({ ...account({ id: 9, email: body.email, role: body.role, last_sign_in_at: null }), password: 'Generated-Once-Pass1' });
    }),
    http.put('*/api/admin/v1/staff/:id', async ({ request, params }) => {
      await record(request);
      if (params.id === '1') return HttpResponse.json({ message: LAST_OWNER }, { status: 409 });
      const body = (await request.json()) as Partial<StaffAccount>;
      return HttpResponse.json({ ...ACCOUNTS.find((row) => String(row.id) === params.id)!, ...body });
    }),
    http.get('*/api/admin/v1/security-settings', () => HttpResponse.json({ require_two_step: false })),
    http.put('*/api/admin/v1/security-settings', async ({ request }) => {
      await record(request);
      return HttpResponse.json(await request.clone().json());
    }),
    http.get('*/api/admin/v1/staff/:id/sign-ins', () =>
      HttpResponse.json([
        {
          id: 2,
          at: '2026-11-20T09:15:00.000Z',
          outcome: 'signed_in',
          method: 'password',
          second_step: 'totp',
          reason: null,
          ip: '198.51.100.7',
          user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36',
        },
        {
          id: 1,
          at: '2026-11-20T09:14:00.000Z',
          outcome: 'failed',
          method: 'password',
          second_step: null,
          reason: 'wrong code',
          ip: '198.51.100.7',
          user_agent: null,
        },
      ]),
    ),
    http.post('*/api/admin/v1/staff/:id/reset-two-step', async ({ request, params }) => {
      await record(request);
      return HttpResponse.json({ ...ACCOUNTS.find((row) => String(row.id) === params.id)!, two_step: false });
    }),
    http.post('*/api/admin/v1/staff/:id/reset-password', async ({ request, params }) => {
      await record(request);
      return HttpResponse.json({ ...ACCOUNTS.find((row) => String(row.id) === params.id)!, password: 'Reset-Once-Pass2' });
    }),
    http.post('*/api/admin/v1/account/password', async ({ request }) => {
      await record(request);
      const body = (await request.json()) as { current_password: string };
      if (body.current_password !== 'the-right-one') {
        return HttpResponse.json(
          {
            message: 'Invalid request: body.current_password: is not your current password',
            errors: [{ path: 'body.current_password', message: 'is not your current password' }],
          },
          { status: 400 },
        );
      }
      return HttpResponse.json({ changed: true, ended_sessions: 2 });
    }),
  );
  return sent;
}

const row = async (email: string) => (await within(await screen.findByRole('table')).findByText(email)).closest('tr')!;

describe('the staff screen', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists staff with role, status and last sign-in', async () => {
    staffServer();
    renderApp('/staff');
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff' })).toBeVisible();
    const desk = await row('desk@studio.test');
    expect(within(desk).getByText('Front desk')).toBeVisible();
    expect(within(desk).getByText('Active')).toBeVisible();
    expect(within(desk).getByText('Never')).toBeVisible();
    expect(within(await row('gone@studio.test')).getByText('Disabled')).toBeVisible();
    expect(within(await row('admin@localhost')).getByText('Owner')).toBeVisible();
  });

  it("shows who has two-step, a member's sign-in history, resets their two-step after a confirmation, and sets the owner's rule", async () => {
    const sent = staffServer();
    const { user } = renderApp('/staff');
    expect(within(await row('desk@studio.test')).getByText('On')).toBeVisible();
    expect(within(await row('gone@studio.test')).getByText('Off')).toBeVisible();
    await user.click(await screen.findByRole('switch', { name: 'Require two-step sign-in for every staff account' }));
    await waitFor(() => expect(sent).toEqual([{ method: 'PUT', path: '/api/admin/v1/security-settings', body: { require_two_step: true } }]));
    await user.click(await row('desk@studio.test'));
    const history = await screen.findByRole('table', { name: 'Sign-in history' });
    expect(within(history).getByText('Password + authenticator code')).toBeVisible();
    expect(within(history).getByText('Failed: wrong code')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Reset two-step' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reset two-step sign-in?' });
    await user.click(within(confirm).getByRole('button', { name: 'Reset two-step' }));
    await waitFor(() => expect(sent.at(-1)).toEqual({ method: 'POST', path: '/api/admin/v1/staff/2/reset-two-step', body: undefined }));
  });

  it('adds a staff member with a role and shows the generated password once', async () => {
    const sent = staffServer();
    const { user } = renderApp('/staff');
    await user.click(await screen.findByRole('link', { name: 'Add staff member' }));
    await user.type(await screen.findByRole('textbox', { name: /E-mail/ }), 'new.coach@studio.test');
    await user.click(screen.getByRole('combobox', { name: /Role/ }));
    await user.click(await screen.findByRole('option', { name: 'Content' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const shown = await screen.findByRole('dialog', { name: 'Password to hand over' });
    expect(within(shown).getByText('Generated-Once-Pass1')).toBeVisible();
    expect(within(shown).getByText(/Give this password to new.coach@studio.test/)).toBeVisible();
    expect(sent).toEqual([{ method: 'POST', path: '/api/admin/v1/staff', body: { email: 'new.coach@studio.test', role: 'content' } }]);
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff' })).toBeVisible();
    expect(screen.queryByText('Generated-Once-Pass1')).toBeNull();
  });

  it('changes a role, sending only role and status', async () => {
    const sent = staffServer();
    const { user } = renderApp('/staff/2');
    expect(await screen.findByText('desk@studio.test')).toBeVisible();
    await user.click(screen.getByRole('combobox', { name: /Role/ }));
    await user.click(await screen.findByRole('option', { name: 'Manager' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('heading', { level: 1, name: 'Staff' });
    expect(sent).toEqual([{ method: 'PUT', path: '/api/admin/v1/staff/2', body: { role: 'manager', status: 'active' } }]);
  });

  it("marks one's own account and says why the server refuses to leave no owner", async () => {
    staffServer();
    const { user } = renderApp('/staff/1');
    expect(await screen.findByText(/This is your account/)).toBeVisible();
    // One's own password is changed from the user menu, not reset here.
    expect(screen.queryByRole('button', { name: 'Reset password' })).toBeNull();
    await user.click(screen.getByRole('combobox', { name: /Status/ }));
    await user.click(await screen.findByRole('option', { name: 'Disabled' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(LAST_OWNER)).toBeVisible();
  });

  it("resets another staff member's password after a confirmation and shows it once", async () => {
    const sent = staffServer();
    const { user } = renderApp('/staff/2');
    await user.click(await screen.findByRole('button', { name: 'Reset password' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reset the password?' });
    expect(within(confirm).getByText(/desk@studio.test gets a new generated password and is signed out everywhere/)).toBeVisible();
    await user.click(within(confirm).getByRole('button', { name: 'Reset password' }));
    const shown = await screen.findByRole('dialog', { name: 'Password to hand over' });
    expect(within(shown).getByText('Reset-Once-Pass2')).toBeVisible();
    expect(sent).toEqual([{ method: 'POST', path: '/api/admin/v1/staff/2/reset-password', body: undefined }]);
  });
});

describe('Change password in the user menu', () => {
  it('asks for the current password, checks the new one twice, and names a wrong current one', async () => {
    const sent = staffServer();
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    const field = (name: RegExp) => within(dialog).getByLabelText(name);
    await user.type(field(/^Current password/), 'not-it');
    await user.type(field(/^New password \*?$/), 'brand-new-pass');
    await user.type(field(/^New password again/), 'brand-new-pasS');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(within(dialog).getByText('The two new passwords differ')).toBeVisible();
    expect(sent).toEqual([]);

    await user.clear(field(/^New password again/));
    await user.type(field(/^New password again/), 'brand-new-pass');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await within(dialog).findByText('is not your current password')).toBeVisible();

    await user.clear(field(/^Current password/));
    await user.type(field(/^Current password/), 'the-right-one');
    await user.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed; 2 other sessions ended')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Change password' })).toBeNull());
    expect(sent.map((request) => request.body)).toEqual([
      { current_password: 'not-it', new_password: 'brand-new-pass' },
      { current_password: 'the-right-one', new_password: 'brand-new-pass' },
    ]);
  });
});
