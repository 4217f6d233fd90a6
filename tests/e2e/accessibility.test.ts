import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { closeServerAndBrowser, openServerAndBrowser, screenshot, signInPage, type RunningServer } from '../support/e2e';
import { drawerOpen, isPhone, SCREENS, seriousAxeFindings, sidewaysOverflow, type AxeFinding } from '../support/screens';

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

/**
 * axe-core (WCAG 2.x A/AA and best practices) over every screen and every modal of the console,
 * in both themes, on a phone and on a desktop: no serious or critical finding. On the phone,
 * nothing scrolls sideways and the drawer is closed again once a screen is open.
 */
describe('accessibility and phone layout of every screen in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => void ({ server, browser } = await openServerAndBrowser()));
  afterAll(() => closeServerAndBrowser(server, browser));

  for (const viewport of VIEWPORTS) {
    for (const scheme of SCHEMES) {
      it(`${viewport.name} (${viewport.width} px), ${scheme}`, { timeout: 600_000 }, async () => {
        // The sign-in page first, signed out.
        const signedOut = await browser.newContext({ viewport, colorScheme: scheme });
        const login = await signedOut.newPage();
        await login.goto(`${server.url}/login`);
        const findings: Record<string, AxeFinding[]> = { 'sign-in page': await seriousAxeFindings(login) };
        const overflow: Record<string, number> = { 'sign-in page': await sidewaysOverflow(login) };
        await signedOut.close();

        const page = await signInPage(browser, server, { ...viewport, colorScheme: scheme });
        const drawerLeftOpen: string[] = [];
        for (const screen of SCREENS) {
          if (screen.only === 'desktop' && isPhone(page)) continue;
          if (screen.only === 'phone' && !isPhone(page)) continue;
          await screen.open(page, server.url);
          findings[screen.name] = await seriousAxeFindings(page);
          if (!screen.widthCheckedElsewhere) overflow[screen.name] = await sidewaysOverflow(page);
          await screenshot(page, `a11y-${viewport.width}-${scheme}-${screen.name.replace(/\W+/g, '-')}`);
          await screen.close?.(page);
          if (isPhone(page) && (await drawerOpen(page))) drawerLeftOpen.push(screen.name);
        }
        await page.context().close();

        const failing = Object.fromEntries(Object.entries(findings).filter(([, list]) => list.length > 0));
        expect(failing).toEqual({});
        expect(Object.fromEntries(Object.entries(overflow).filter(([, pixels]) => pixels > 0))).toEqual({});
        expect(drawerLeftOpen).toEqual([]);
      });
    }
  }
});
