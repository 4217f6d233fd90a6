import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot, signInPage, startServer, type RunningServer } from '../support/e2e';

// The machine may be busy: give each wait up to 20 s instead of expect.poll's default second.
const poll = <T>(value: () => Promise<T> | T, message?: string) => expect.poll(value, { timeout: 20_000, interval: 100, message });

const FRONT_DESK = { email: 'fd@studio.test', password: 'front-desk-pass-1' };
const CONTENT = { email: 'content@studio.test', password: 'content-pass-1' };
const MANAGER = { email: 'manager@studio.test', password: 'manager-pass-1' };
const OWNER = { email: 'e2e@studio.test', password: 'e2e-password-1' };
// In the deterministic demo data client 24 has devices, favorites and contracts.
const CLIENT = 24;

/** `npm run staff` on the server's data directory, as an operator runs it. */
function staffCli(dataDir: string, ...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/src/cli/staff.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

async function signInAs(browser: Browser, server: RunningServer, who: { email: string; password: string }, width = 1440): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 } });
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  await page.waitForURL(/\/login/);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: 20_000 });
  return page;
}

/** A call with this browser's session, as the console makes it; the status and the message. */
const call = (page: Page, method: string, path: string, body?: unknown) =>
  page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      let message = '';
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? '';
      } catch {
        message = text.slice(0, 200);
      }
      return { status: response.status, message };
    },
    { method, path, body },
  );

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main' });
// Group headers are disclosure buttons, single entries links (the sidebar is site navigation).
const GROUPS = ['Messaging', 'Video Manager', 'Clients'];
const menuHas = async (page: Page, name: string) =>
  (await menu(page)
    .getByRole(GROUPS.includes(name) ? 'button' : 'link', { name, exact: true })
    .count()) > 0;
/** Adds a staff member through the staff screen's own call, as the owner; the generated password. */
async function addStaff(owner: Page, email: string, role: string): Promise<{ email: string; password: string }> {
  const password = await owner.evaluate(
    async ({ email, role }) => {
      const response = await fetch('/api/admin/v1/staff', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, role }),
      });
      return ((await response.json()) as { password?: string }).password;
    },
    { email, role },
  );
  if (!password) throw new Error(`could not add ${email}`);
  return { email, password };
}

const override = { client_id: CLIENT, new_vod_access_level: 3, adminOverrideDate: new Date(Date.now() + 3 * 86_400_000).toISOString() };

describe('roles, as the issue checks them, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  // Each test has its own accounts, so no test depends on another having run (or not) before it.
  let promoted: { email: string; password: string };
  let leaver: { email: string; password: string };
  let resetting: { email: string; password: string };

  beforeAll(async () => {
    // A studio that already ran: its data directory, with the server stopped.
    const first = await startServer();
    expect(await first.stop()).toBe(0);
    expect(staffCli(first.dataDir, 'add', FRONT_DESK.email, '--role', 'front_desk', '--password', FRONT_DESK.password).code).toBe(0);
    expect(staffCli(first.dataDir, 'add', CONTENT.email, '--role', 'content', '--password', CONTENT.password).code).toBe(0);
    expect(staffCli(first.dataDir, 'add', MANAGER.email, '--role', 'manager', '--password', MANAGER.password).code).toBe(0);
    server = await startServer({ dataDir: first.dataDir });
    browser = await launchBrowser();
    const owner = await signInPage(browser, server);
    promoted = await addStaff(owner, 'promoted@studio.test', 'front_desk');
    leaver = await addStaff(owner, 'leaver@studio.test', 'content');
    resetting = await addStaff(owner, 'resetting@studio.test', 'front_desk');
    await owner.context().close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('tells an operator to stop the running server before npm run staff, without a stack trace', () => {
    const result = staffCli(server.dataDir, 'list');
    expect(result.code).toBe(1);
    expect(result.err).toContain('is in use by another server process');
    expect(result.err).toContain('Stop the server first');
    expect(result.err).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  });

  it.each([
    ['owner', OWNER, ['Dashboard', 'High Five', 'All Videos', 'All Clients', 'At risk', 'New segment', 'Broadcasts', 'Overrides', 'Audit Log', 'Staff']],
    ['manager', MANAGER, ['Dashboard', 'High Five', 'All Videos', 'All Clients', 'At risk', 'New segment', 'Broadcasts', 'Overrides', 'Audit Log']],
    ['front_desk', FRONT_DESK, ['Dashboard', 'All Clients', 'At risk']],
    ['content', CONTENT, ['Dashboard', 'All Videos']],
  ] as const)(
    'opens every sidebar entry of a %s without a refusal',
    async (role, who, mustHave) => {
      const page = await signInAs(browser, server, who);
      await poll(() => menuHas(page, mustHave.at(-1)!)).toBe(true);
      const entries = await menu(page)
        .getByRole('link')
        .evaluateAll((links) =>
          links.map((link) => ({
            name: (link.getAttribute('aria-label') ?? link.textContent ?? '').trim(),
            path: new URL((link as HTMLAnchorElement).href).pathname,
          })),
        );
      const names = entries.map((entry) => entry.name);
      for (const name of mustHave) expect(names, `${role} has ${name}`).toContain(name);
      // What the role may not use is not offered at all.
      const hidden: Record<string, string[]> = {
        front_desk: ['New segment', 'Broadcasts', 'Overrides', 'Audit Log', 'Staff', 'All Videos', 'High Five'],
        content: ['All Clients', 'At risk', 'New segment', 'Broadcasts', 'Audit Log', 'Staff', 'High Five'],
        manager: ['Staff'],
        owner: [],
      };
      for (const name of hidden[role]!) expect(names, `${role} lacks ${name}`).not.toContain(name);
      const refused: string[] = [];
      page.on('response', (response) => {
        if (response.status() === 403 && new URL(response.url()).pathname.startsWith('/api/'))
          refused.push(`${new URL(response.url()).pathname} (${page.url()})`);
      });
      for (const entry of entries) {
        await page.goto(`${server.url}${entry.path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 30_000 });
        await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
        expect(await page.getByText('Access denied').count(), `${role}: ${entry.name} (${entry.path})`).toBe(0);
      }
      expect(refused, role).toEqual([]);
      await screenshot(page, `roles-sidebar-${role}`);
      await page.context().close();
    },
    300_000,
  );

  it('lets the front desk open a client and push to them, and refuses the override, the audit log and template edits', async () => {
    const desk = await signInAs(browser, server, FRONT_DESK);
    await poll(() => menuHas(desk, 'Clients')).toBe(true);
    for (const hidden of ['Messaging', 'Video Manager', 'Audit Log', 'Staff']) expect(await menuHas(desk, hidden), hidden).toBe(false);
    await poll(() => menu(desk).getByLabel('Search customers').count()).toBe(1);

    await desk.goto(`${server.url}/client/${CLIENT}`);
    await desk.getByRole('heading', { level: 1, name: 'Client Details' }).waitFor({ timeout: 20_000 });
    const push = desk.getByRole('button', { name: 'Send a push notification to client' });
    await push.waitFor();
    expect(await desk.getByRole('button', { name: 'Update VOD Access Level' }).count()).toBe(0);
    expect(await desk.getByRole('region', { name: 'Purchase History', exact: true }).count()).toBe(1);
    expect(await desk.getByRole('region', { name: 'History', exact: true }).count()).toBe(0);
    await screenshot(desk, 'roles-front-desk-client');
    await push.click();
    const modal = desk.getByRole('dialog', { name: 'Push Notification Directly to Client' });
    await modal.getByRole('textbox', { name: 'Message' }).fill('See you at the front desk!');
    await modal.getByRole('button', { name: 'Send' }).click();
    await poll(() => modal.getByRole('status').textContent()).toBe('Sent');

    const refused = [
      await call(desk, 'POST', '/api/client/v1/client-details/update-access-level', override),
      await call(desk, 'GET', '/api/admin/v1/audit'),
      await call(desk, 'GET', '/api/admin/v1/audit/export'),
      await call(desk, 'POST', '/api/client/v1/messaging/update', { _id: 1, title: 'x', message: 'y', enabled: true }),
    ];
    expect(refused.map((answer) => answer.status)).toEqual([403, 403, 403, 403]);
    expect(refused[0]!.message).toContain("it needs the 'clients.override' permission");
    expect(refused[1]!.message).toContain("'audit.read'");
    expect(refused[3]!.message).toContain("'messaging.edit'");
  });

  it('lets the content editor edit a video but not see clients', async () => {
    const content = await signInAs(browser, server, CONTENT);
    await poll(() => menuHas(content, 'Video Manager')).toBe(true);
    for (const hidden of ['Clients', 'Messaging', 'Audit Log', 'Staff']) expect(await menuHas(content, hidden), hidden).toBe(false);
    expect(await menu(content).getByLabel('Search customers').count()).toBe(0);

    await content.goto(`${server.url}/videos`);
    await content.getByRole('heading', { level: 1, name: 'Video Manager' }).waitFor({ timeout: 20_000 });
    await content.getByRole('link', { name: 'Edit' }).first().click();
    const title = content.getByRole('textbox', { name: /^Title/ });
    await title.waitFor({ timeout: 20_000 });
    await title.fill(`${await title.inputValue()} (edited by content)`);
    await content.getByRole('button', { name: 'Save' }).click();
    await poll(() => content.url()).toMatch(/\/videos$/);

    expect((await call(content, 'GET', '/api/client/v1/clients/1')).status).toBe(403);
    expect((await call(content, 'GET', `/api/client/v1/client-details/${CLIENT}`)).status).toBe(403);
    await content.goto(`${server.url}/clients/all`);
    await content.getByText('Access denied').waitFor({ timeout: 20_000 });
    await screenshot(content, 'roles-content-clients-denied');
  });

  it('lets the owner make the front desk a manager, after which the override works in the same session', async () => {
    const desk = await signInAs(browser, server, promoted);
    expect((await call(desk, 'POST', '/api/client/v1/client-details/update-access-level', override)).status).toBe(403);
    const owner = await signInPage(browser, server);
    await poll(() => menuHas(owner, 'Staff')).toBe(true);
    await owner.goto(`${server.url}/staff`);
    const row = owner.getByRole('row').filter({ hasText: promoted.email });
    await poll(() => row.textContent()).toContain('Front desk');
    await screenshot(owner, 'staff-list');
    await row.click();
    await owner.getByRole('combobox', { name: 'Role' }).click();
    await owner.getByRole('option', { name: 'Manager' }).click();
    await screenshot(owner, 'staff-edit');
    await owner.getByRole('button', { name: 'Save' }).click();
    await poll(() => owner.getByRole('row').filter({ hasText: promoted.email }).textContent()).toContain('Manager');

    expect((await call(desk, 'POST', '/api/client/v1/client-details/update-access-level', override)).status).toBe(200);
    // A reload follows the new role: the Audit Log is in the menu now.
    await desk.reload();
    await poll(() => menuHas(desk, 'Audit Log')).toBe(true);
  });

  it("ends the content editor's session at once when the owner disables the account", async () => {
    const content = await signInAs(browser, server, leaver);
    expect((await call(content, 'GET', '/api/admin/v1/videos?range=[0,0]')).status).toBe(200);
    const owner = await signInPage(browser, server);
    await owner.goto(`${server.url}/staff`);
    await owner.getByRole('row').filter({ hasText: leaver.email }).click();
    await owner.getByRole('combobox', { name: 'Status' }).click();
    await owner.getByRole('option', { name: 'Disabled' }).click();
    await owner.getByRole('button', { name: 'Save' }).click();
    await poll(() => owner.getByRole('row').filter({ hasText: leaver.email }).textContent()).toContain('Disabled');
    expect((await call(content, 'GET', '/api/admin/v1/videos?range=[0,0]')).status).toBe(401);
    // The next page it opens goes to the sign-in page, where the account is refused.
    await content.goto(`${server.url}/videos`);
    await content.waitForURL(/\/login/);
  });

  it('shows the staff screen at 1440 and 390 px without sideways scrolling', async () => {
    for (const width of [1440, 390]) {
      const page = await signInAs(browser, server, { email: 'e2e@studio.test', password: 'e2e-password-1' }, width);
      await page.goto(`${server.url}/staff`);
      await page.getByRole('heading', { level: 1, name: 'Staff' }).waitFor({ timeout: 20_000 });
      await page.getByText(FRONT_DESK.email).first().waitFor();
      await screenshot(page, `staff-list-${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.goto(`${server.url}/staff/create`);
      await page.getByRole('textbox', { name: 'E-mail' }).waitFor({ timeout: 20_000 });
      await screenshot(page, `staff-create-${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      // A reset shows the new password once, in a dialog that fits the screen.
      await page.goto(`${server.url}/staff`);
      await page.getByText(resetting.email).first().click();
      await page.getByRole('button', { name: 'Reset password' }).click();
      await page.getByRole('dialog', { name: 'Reset the password?' }).getByRole('button', { name: 'Reset password' }).click();
      const shown = page.getByRole('dialog', { name: 'Password to hand over' });
      await shown.waitFor({ timeout: 20_000 });
      await poll(() => shown.evaluate((element) => getComputedStyle(element.closest('.MuiDialog-container') ?? element).opacity)).toBe('1');
      await screenshot(page, `staff-password-once-${width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.context().close();
    }
  });
});
