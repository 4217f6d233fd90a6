import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { closeServerAndBrowser, E2E_STAFF, openServerAndBrowser, screenshot, signInPage, type RunningServer } from '../support/e2e';
import { drawerOpen, isPhone, openDrawer, poll, seriousAxeFindings, settle, sidewaysOverflow, type AxeFinding } from '../support/screens';
import { totpCode } from '../support/totp';

const COMBOS = [
  { width: 1440, height: 900, colorScheme: 'light' },
  { width: 1440, height: 900, colorScheme: 'dark' },
  { width: 390, height: 844, colorScheme: 'light' },
  { width: 390, height: 844, colorScheme: 'dark' },
] as const;

/**
 * Two-step sign-in in Chromium, at 1440 and 390 px in both themes: set-up from the user menu with a
 * code computed here from the key the dialog shows, the recovery codes, the second step of the
 * sign-in page, the sign-in history and 'Confirm it is you'; axe finds nothing serious on any.
 */
describe('two-step sign-in in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => void ({ server, browser } = await openServerAndBrowser()));
  afterAll(() => closeServerAndBrowser(server, browser));

  async function userMenu(page: Page, entry: string) {
    if (isPhone(page) && !(await drawerOpen(page))) await openDrawer(page);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: entry }).click();
  }

  for (const combo of COMBOS) {
    it(`${combo.width} px, ${combo.colorScheme}`, { timeout: 300_000 }, async () => {
      const name = (what: string) => `two-step-${combo.width}-${combo.colorScheme}-${what}`;
      const findings: Record<string, AxeFinding[]> = {};
      const overflow: Record<string, number> = {};
      const look = async (page: Page, what: string) => {
        await settle(page);
        findings[what] = await seriousAxeFindings(page);
        overflow[what] = await sidewaysOverflow(page);
        await screenshot(page, name(what));
      };
      const page = await signInPage(browser, server, combo);

      // Set up: the key shown, a code computed from it, then the recovery codes.
      await userMenu(page, 'Two-step sign-in');
      const setup = page.getByRole('dialog', { name: 'Two-step sign-in' });
      await setup.getByRole('button', { name: 'Set up' }).click();
      await setup.getByRole('img', { name: /QR code/ }).waitFor();
      await look(page, 'set-up');
      const secret = (await setup.locator('p', { hasText: /^[A-Z2-7 ]{20,}$/ }).textContent())!.replace(/\s/g, '');
      await setup.getByLabel(/Code from the app/).fill(totpCode(secret, new Date()));
      await setup.getByRole('button', { name: 'Turn on' }).click();
      const codesDialog = page.getByRole('dialog', { name: 'Your recovery codes' });
      await codesDialog.waitFor();
      const codes = await codesDialog.getByRole('listitem').allTextContents();
      expect(codes).toHaveLength(10);
      await look(page, 'recovery-codes');
      await codesDialog.getByRole('button', { name: 'I have saved them' }).click();

      // Signing in again: the password, then the second step's page, then a recovery code.
      const fresh = await browser.newContext({ viewport: { width: combo.width, height: combo.height }, colorScheme: combo.colorScheme });
      const login = await fresh.newPage();
      await login.goto(`${server.url}/login`);
      await login.getByLabel('Email').fill(E2E_STAFF.email);
      await login.getByLabel('Password').fill(E2E_STAFF.password);
      await login.getByRole('button', { name: 'Sign in' }).click();
      await login.waitForURL(/\/login\/two-step$/);
      await login.getByLabel('Code').fill('000000');
      await login.getByRole('button', { name: 'Verify' }).click();
      await login.getByRole('alert').filter({ hasText: 'That code is not right' }).waitFor();
      await look(login, 'second-step');
      await login.getByLabel('Code').fill(codes[0]!);
      await login.getByRole('button', { name: 'Verify' }).click();
      await login.waitForURL((url) => !url.pathname.startsWith('/login'));

      // The history shows both, and the failed code.
      await userMenu(login, 'Sign-in history');
      const history = login.getByRole('table', { name: 'Sign-in history' });
      await poll(() => history.getByText('Password + recovery code').count()).toBeGreaterThan(0);
      expect(await history.getByText('Failed: wrong code').count()).toBeGreaterThan(0);
      await look(login, 'sign-in-history');
      await login.getByRole('button', { name: 'Close' }).click();

      // 'Confirm it is you': the server's answer to a sensitive call is played once here (the
      // server's own refusal is tested in tests/server/reauth.test.ts); the code then goes to the
      // real POST /api/auth/reauth and the call is sent again.
      let refused = false;
      await login.route('**/api/admin/v1/account/sign-ins', async (route) => {
        if (refused) return route.continue();
        refused = true;
        await route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ message: 'Confirm it is you', reauth_required: true }) });
      });
      await userMenu(login, 'Sign-in history');
      const check = login.getByRole('dialog', { name: 'Confirm it is you' });
      await check.waitFor();
      await check.getByRole('button', { name: 'Code' }).click();
      await look(login, 'confirm-it-is-you');
      await check.getByLabel(/Code from the app/).fill(codes[1]!);
      await check.getByRole('button', { name: 'Confirm' }).click();
      await check.waitFor({ state: 'hidden' });
      await poll(() => login.getByRole('table', { name: 'Sign-in history' }).isVisible()).toBe(true);
      await login.getByRole('button', { name: 'Close' }).click();

      // Off again (with a recovery code) for the next viewport.
      await userMenu(login, 'Two-step sign-in');
      const status = login.getByRole('dialog', { name: 'Two-step sign-in' });
      await status.getByText(/8 recovery codes left/).waitFor();
      await status.getByRole('button', { name: 'Turn off' }).click();
      await status.getByRole('button', { name: 'Code' }).click();
      await status.getByLabel(/Code from the app/).fill(codes[2]!);
      await status.getByRole('button', { name: 'Turn off' }).click();
      await status.waitFor({ state: 'hidden' });
      await fresh.close();
      await page.context().close();

      expect(Object.fromEntries(Object.entries(findings).filter(([, list]) => list.length > 0))).toEqual({});
      expect(Object.fromEntries(Object.entries(overflow).filter(([, pixels]) => pixels > 0))).toEqual({});
    });
  }
});
