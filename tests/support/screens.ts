import fs from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

// What the browser tests share: axe-core run inside the page, the page's sideways
// overflow, and how to reach every screen and modal of the console.

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const poll = <T>(value: () => Promise<T> | T, message?: string) =>
  expect.poll(value, { timeout: Number(process.env.POLL_MS ?? 30_000), interval: 100, message });

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * axe-core's full rule set over the page as it is now; only serious and critical findings count.
 * Evaluated through the DevTools protocol, so the console's Content-Security-Policy (no inline
 * scripts) stays on and is tested as served.
 */
export async function seriousAxeFindings(page: Page): Promise<AxeFinding[]> {
  // The sidebar's entries come one commit after the page (src/layout/AfterThePage.tsx): scan them too.
  if ((await page.locator('.RaSidebar-fixed').count()) > 0) await page.locator('.RaSidebar-fixed nav').waitFor();
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{ violations: { id: string; impact?: string; help: string; nodes: { target: string[]; failureSummary?: string }[] }[] }>;
        };
      }
    ).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        rule: violation.id,
        impact: violation.impact!,
        help: violation.help,
        targets: violation.nodes.slice(0, 5).map((node) => `${node.target.join(' ')} — ${(node.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 240)}`),
      }));
  });
}

/** How many pixels the page is wider than the window (0: nothing scrolls sideways). */
export const sidewaysOverflow = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);

/** Lets transitions (drawer, collapse, dialog) finish; spinners, which turn for ever, do not count. */
export async function settle(page: Page) {
  // A change just made (a colour scheme, a size) starts its transitions when React has rendered it:
  // two frames later, so they are running by the time they are counted.
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  await poll(() =>
    page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity).length),
  ).toBe(0);
}

/** A modal is on screen when it is open and its box lies inside the window. */
export async function expectInsideWindow(page: Page, dialog: Locator) {
  await poll(() => dialog.isVisible()).toBe(true);
  await settle(page);
  // MUI gives the dialog role to the dialog's paper itself.
  const box = (await dialog.boundingBox())!;
  const { width, height } = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
  expect(box.y + box.height).toBeLessThanOrEqual(height);
}

/** A client with a MindBody id, contracts and favorites in the demo data (tests/e2e/client-actions.test.ts uses it too). */
export const DEMO_CLIENT = 24;

export const isPhone = (page: Page) => page.viewportSize()!.width < 600;

export const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

/** The phone's drawer: open when its paper is on screen. */
export const drawerOpen = (page: Page) => page.locator('.MuiDrawer-modal .MuiDrawer-paper').isVisible();

export async function openDrawer(page: Page) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  await poll(() => drawerOpen(page)).toBe(true);
  await settle(page);
}

export interface Screen {
  name: string;
  /** Opens the screen from wherever the page is, and waits until it has its content. */
  open(page: Page, url: string): Promise<void>;
  /** Closes what `open` opened over the page (a modal, the drawer, the search list). */
  close?(page: Page): Promise<void>;
  /** Only at these widths (the delete confirmation lives in the desktop table). */
  only?: 'desktop' | 'phone';
  /** The client lists' own browser tests hold them to the phone's width (they have their own layout). */
  widthCheckedElsewhere?: boolean;
}

const goto = async (page: Page, url: string, path: string, title: string | RegExp) => {
  await page.goto(`${url}${path}`);
  await poll(() => heading(page, title).isVisible(), `${path} shows ${String(title)}`).toBe(true);
};

const modal = (trigger: (page: Page) => Locator, name: string, before?: (page: Page) => Promise<void>): Pick<Screen, 'open' | 'close'> => ({
  async open(page) {
    await before?.(page);
    await trigger(page).click();
    await expectInsideWindow(page, page.getByRole('dialog', { name }));
  },
  async close(page) {
    await page.keyboard.press('Escape');
    await poll(() => page.getByRole('dialog', { name }).count()).toBe(0);
  },
});

const clientPage = async (page: Page, url: string) => {
  await goto(page, url, `/client/${DEMO_CLIENT}`, 'Client Details');
  await poll(() =>
    page
      .locator('[data-field="email"]')
      .textContent()
      .then((text) => Boolean(text)),
  ).toBe(true);
};

/** Every screen of the console and every modal, in an order one page can walk. */
export const SCREENS: Screen[] = [
  {
    name: 'dashboard',
    async open(page, url) {
      await goto(page, url, '/', 'Dashboard');
      await poll(() => page.locator('[data-stat-state="loaded"]').count()).toBe(3);
      await poll(() => page.getByRole('img', { name: /Daily video plays/ }).isVisible()).toBe(true);
    },
  },
  {
    name: 'sidebar drawer',
    only: 'phone',
    open: openDrawer,
    async close(page) {
      await page.keyboard.press('Escape');
      await poll(() => drawerOpen(page)).toBe(false);
    },
  },
  {
    name: 'search results',
    async open(page) {
      if (isPhone(page)) await openDrawer(page);
      const box = page.getByRole('combobox', { name: 'Search customers' });
      await box.click();
      await poll(() => page.locator('form[role="search"][data-ready="true"]').count()).toBe(1);
      await box.pressSequentially('em', { delay: 40 });
      await poll(() =>
        page
          .getByRole('listbox', { name: 'Customer search results' })
          .getByRole('option')
          .count()
          .then((n) => n > 0),
      ).toBe(true);
      // Avatars: Gravatar, or the fallback once it cannot be reached.
      await poll(() => page.evaluate(() => Array.from(document.querySelectorAll('img')).every((img) => img.complete))).toBe(true);
    },
    async close(page) {
      await page.keyboard.press('Escape');
      if (isPhone(page)) {
        await page.keyboard.press('Escape');
        await poll(() => drawerOpen(page)).toBe(false);
      }
    },
  },
  { name: 'messaging', open: (page, url) => goto(page, url, '/messaging/high-fives', 'Push Messaging - High Five') },
  {
    name: 'automated sending preview',
    async open(page) {
      await page.getByRole('button', { name: 'Preview', exact: true }).click();
      await poll(() => page.getByRole('button', { name: 'Refresh preview' }).isEnabled()).toBe(true);
      await poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: /would receive/ })
          .count()
          .then((count) => count > 0),
      ).toBe(true);
    },
  },
  { name: 'add message modal', ...modal((page) => page.getByRole('button', { name: 'Add new message' }), 'Add new message') },
  {
    name: 'videos',
    async open(page, url) {
      await goto(page, url, '/videos', 'Video Manager');
      await poll(() =>
        page
          .getByText(/Advanced Barre Blast/)
          .first()
          .isVisible(),
      ).toBe(true);
    },
  },
  { name: 'delete video modal', only: 'desktop', ...modal((page) => page.getByRole('button', { name: 'Delete' }).first(), 'Delete "Advanced Barre Blast"?') },
  {
    name: 'video edit',
    async open(page, url) {
      await goto(page, url, '/videos/1', 'Edit video');
      await poll(() => page.getByLabel('Title').first().inputValue().then(Boolean)).toBe(true);
    },
  },
  {
    name: 'all clients',
    widthCheckedElsewhere: true,
    async open(page, url) {
      await goto(page, url, '/clients/all', 'Clients - All');
      await poll(() => page.getByText(/@/).first().isVisible()).toBe(true);
    },
  },
  {
    name: 'new clients',
    widthCheckedElsewhere: true,
    async open(page, url) {
      await goto(page, url, '/clients/new', 'Clients - New');
      await poll(() => page.getByText(/@/).first().isVisible()).toBe(true);
    },
  },
  // Ours: the at-risk list, a new segment, the running overrides and the broadcasts.
  { name: 'at risk', open: (page, url) => goto(page, url, '/segments/at-risk', 'At risk') },
  { name: 'new segment', open: (page, url) => goto(page, url, '/segments/new', 'New segment') },
  { name: 'overrides', open: (page, url) => goto(page, url, '/overrides', 'Overrides') },
  { name: 'broadcasts', open: (page, url) => goto(page, url, '/broadcasts', 'Broadcasts') },
  {
    name: 'revenue',
    async open(page, url) {
      await goto(page, url, '/revenue', 'Revenue');
      await poll(() => page.getByRole('region', { name: 'Activity cohorts', exact: true }).isVisible()).toBe(true);
    },
  },
  {
    name: 'client page, every section open',
    async open(page, url) {
      await clientPage(page, url);
      // Each click turns a 'View …' toggle into 'Hide …': open the first closed one until none is left.
      const closed = page.getByRole('button', { name: /^View/ });
      for (let left = await closed.count(); left > 0; left = await closed.count()) {
        await closed.first().click();
        await poll(() => closed.count()).toBe(left - 1);
      }
      await poll(() => page.locator('[data-testid="section-body"] [role="progressbar"]').count()).toBe(0);
      await settle(page);
    },
  },
  { name: 'push modal', ...modal((page) => page.getByRole('button', { name: 'Send a push notification to client' }), 'Push Notification Directly to Client') },
  { name: 'access level modal', ...modal((page) => page.getByRole('button', { name: 'Update VOD Access Level' }), 'Update Client VOD Access Level') },
  { name: 'add favorite modal', ...modal((page) => page.getByRole('button', { name: 'Add a Video' }), "Add a video to client's favorites list") },
  { name: 'sync contracts modal', ...modal((page) => page.getByRole('button', { name: 'Sync Contracts' }), 'Sync Client Contracts') },
  {
    name: 'audit log',
    async open(page, url) {
      await goto(page, url, '/audit', 'Audit Log');
      await poll(() =>
        page
          .getByText(/Sign-in method/)
          .first()
          .isVisible(),
      ).toBe(true);
    },
  },
  {
    name: 'my sessions',
    async open(page, url) {
      await goto(page, url, '/sessions', 'My sessions');
      await poll(() => page.getByText('This session').isVisible()).toBe(true);
    },
  },
  { name: 'not found', open: (page, url) => goto(page, url, '/no/such/page', 'Page not found') },
];
