import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { closeServerAndBrowser, E2E_STAFF, openServerAndBrowser, screenshot, type RunningServer } from '../support/e2e';
import { poll, seriousAxeFindings, settle } from '../support/screens';

/**
 * Passkeys in Chromium with its virtual authenticator (CTAP2, resident keys, user verification):
 * one added from the user menu, then signing in with it from the sign-in page, with no password.
 * A passkey is bound to a host name, never an IP address, so the console is opened as localhost.
 */
describe('passkeys in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => void ({ server, browser } = await openServerAndBrowser()));
  afterAll(() => closeServerAndBrowser(server, browser));

  it('adds a passkey from the user menu, signs out, and signs in with the passkey alone', { timeout: 180_000 }, async () => {
    const base = server.url.replace('127.0.0.1', 'localhost');
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });

    await page.goto(`${base}/`);
    await page.waitForURL(/\/login/);
    await page.getByLabel('Email').fill(E2E_STAFF.email);
    await page.getByLabel('Password').fill(E2E_STAFF.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: 30_000 });

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Two-step sign-in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Two-step sign-in' });
    await dialog.getByText('No passkeys yet.').waitFor();
    await dialog.getByRole('button', { name: 'Add a passkey' }).click();
    await dialog.getByLabel('Name of this passkey').fill('Chromium test key');
    await dialog.getByRole('button', { name: 'Create passkey' }).click();
    const listed = dialog.getByRole('list', { name: 'Passkeys' }).getByRole('listitem');
    await poll(() => listed.count()).toBe(1);
    expect(await listed.first().textContent()).toMatch(/^Chromium test key.*not used yet$/);
    await settle(page);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await screenshot(page, 'passkeys-added');
    // The authenticator holds it as a discoverable credential for this host.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    await dialog.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(/\/login$/);
    expect(await page.evaluate(async () => (await fetch('/api/isAuthenticated')).json())).toEqual({ isAuthenticated: false, user: null });

    await page.getByRole('button', { name: 'Use a passkey' }).click();
    // Signed in, or the sign-in page's own message saying why not (shown in the failure).
    const dashboard = page.getByRole('heading', { level: 1, name: 'Dashboard' });
    const refusal = page.locator('#passkey-error');
    await dashboard.or(refusal).first().waitFor({ timeout: 30_000 });
    expect(await refusal.isVisible().then((shown) => (shown ? refusal.textContent() : null))).toBeNull();
    await dashboard.waitFor({ timeout: 30_000 });
    expect(await page.evaluate(async () => (await fetch('/api/isAuthenticated')).json())).toMatchObject({
      isAuthenticated: true,
      user: { email: E2E_STAFF.email },
    });
    const history = (await page.evaluate(async () => (await fetch('/api/admin/v1/account/sign-ins')).json())) as { method: string; second_step: string }[];
    expect(history[0]).toMatchObject({ method: 'passkey', second_step: 'passkey' });
    const [{ signCount }] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    expect(signCount).toBeGreaterThan(0);
    // The sign-in history in the user menu names the method.
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign-in history' }).click();
    await page.getByRole('dialog').getByRole('cell', { name: 'Passkey', exact: true }).first().waitFor();
    // On an IP address (no RP ID can be one) the sign-in page offers no passkey.
    const onAddress = await context.newPage();
    await onAddress.goto(`${server.url}/login`);
    await onAddress.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(await onAddress.getByRole('button', { name: 'Use a passkey' }).count()).toBe(0);
    await context.close();
  });
});
