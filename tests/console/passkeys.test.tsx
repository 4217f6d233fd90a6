import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { Passkey } from '@contract/passkeys';
import { dateTime } from '../../src/common/format';
import { dashboardCalls, server, signedIn } from '../support/msw';
import { renderApp } from './helpers/renderApp';

const LAPTOP: Passkey = { id: 4, name: 'Work laptop', created_at: '2026-11-20T08:00:00.000Z', last_used_at: '2026-11-28T17:30:00.000Z', backed_up: false };
const KEY: Passkey = { id: 9, name: 'Blue security key', created_at: '2026-11-27T08:00:00.000Z', last_used_at: null, backed_up: false };

function passkeyServer(initial: Passkey[]) {
  let passkeys = [...initial];
  const removed: number[] = [];
  server.use(
    signedIn(),
    ...dashboardCalls(),
    http.get('*/api/auth/two-step', () => HttpResponse.json({ enabled: false, enabled_at: null, recovery_codes_left: 0, required: false })),
    http.get('*/api/auth/passkeys', () => HttpResponse.json(passkeys)),
    http.delete('*/api/auth/passkeys/:id', ({ params }) => {
      removed.push(Number(params.id));
      passkeys = passkeys.filter((passkey) => passkey.id !== Number(params.id));
      return HttpResponse.json(passkeys);
    }),
  );
  return { removed };
}

describe('passkeys in the two-step dialog', () => {
  it('lists the passkeys with when each was added and last used, and removes one', async () => {
    const { removed } = passkeyServer([LAPTOP, KEY]);
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Two-step sign-in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Two-step sign-in' });
    const list = await within(dialog).findByRole('list', { name: 'Passkeys' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      `Work laptopAdded ${dateTime(LAPTOP.created_at)} · last used ${dateTime(LAPTOP.last_used_at)}`,
      `Blue security keyAdded ${dateTime(KEY.created_at)} · not used yet`,
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Remove the passkey Work laptop' }));
    await waitFor(() => expect(within(dialog).getAllByRole('listitem')).toHaveLength(1));
    expect(removed).toEqual([4]);
    expect(await screen.findByText('Passkey "Work laptop" removed')).toBeVisible();
  });

  it('says so when the browser cannot create passkeys, instead of offering to add one', async () => {
    passkeyServer([]);
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'User menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Two-step sign-in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Two-step sign-in' });
    expect(await within(dialog).findByText('No passkeys yet.')).toBeVisible();
    // jsdom has no WebAuthn, like an old browser.
    expect(within(dialog).getByText('This browser cannot create passkeys.')).toBeVisible();
    expect(within(dialog).queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });

  it("asks for a fresh check before removing one, and 'Use a passkey' answers it; the removal then goes ahead", async () => {
    const { removed } = passkeyServer([LAPTOP]);
    const reauths: unknown[] = [];
    let checked = false;
    server.use(
      http.delete('*/api/auth/passkeys/:id', ({ params }) => {
        if (!checked) return HttpResponse.json({ message: 'Confirm it is you', reauth_required: true }, { status: 403 });
        removed.push(Number(params.id));
        return HttpResponse.json([]);
      }),
      http.post('*/api/auth/passkeys/reauth-options', () =>
        HttpResponse.json({
          challenge: 'Y2hhbGxlbmdl',
          rpId: 'localhost',
          allowCredentials: [{ id: 'Y3JlZA', type: 'public-key' }],
          userVerification: 'required',
        }),
      ),
      http.post('*/api/auth/reauth', async ({ request }) => {
        reauths.push(await request.json());
        checked = true;
        return HttpResponse.json({ reauthenticated: true, valid_until: '2026-11-29T12:15:00Z' });
      }),
    );
    // A browser with WebAuthn whose authenticator answers (jsdom has none).
    const bytes = (text: string) => new TextEncoder().encode(text).buffer;
    const get = vi.fn(async () => ({
      id: 'Y3JlZA',
      rawId: bytes('cred'),
      type: 'public-key',
      authenticatorAttachment: 'platform',
      response: { clientDataJSON: bytes('{}'), authenticatorData: bytes('ad'), signature: bytes('sig'), userHandle: bytes('uh') },
      getClientExtensionResults: () => ({}),
    }));
    Object.defineProperty(window, 'PublicKeyCredential', { configurable: true, value: function PublicKeyCredential() {} });
    Object.defineProperty(navigator, 'credentials', { configurable: true, value: { get } });
    try {
      const { user } = renderApp('/');
      await user.click(await screen.findByRole('button', { name: 'User menu' }));
      await user.click(await screen.findByRole('menuitem', { name: 'Two-step sign-in' }));
      const dialog = await screen.findByRole('dialog', { name: 'Two-step sign-in' });
      await user.click(await within(dialog).findByRole('button', { name: 'Remove the passkey Work laptop' }));
      const check = await screen.findByRole('dialog', { name: 'Confirm it is you' });
      await user.click(await within(check).findByRole('button', { name: 'Use a passkey' }));
      await waitFor(() => expect(removed).toEqual([4]));
      expect(get).toHaveBeenCalledTimes(1);
      expect(reauths).toEqual([
        {
          passkey: expect.objectContaining({
            id: 'Y3JlZA',
            rawId: 'Y3JlZA',
            type: 'public-key',
            response: { clientDataJSON: 'e30', authenticatorData: 'YWQ', signature: 'c2ln', userHandle: 'dWg' },
          }),
        },
      ]);
      expect(await screen.findByText('Passkey "Work laptop" removed')).toBeVisible();
    } finally {
      Reflect.deleteProperty(window, 'PublicKeyCredential');
      Reflect.deleteProperty(navigator, 'credentials');
    }
  });
});
