import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { __unsafe_useEmotionCache, type EmotionCache } from '@emotion/react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { serverReachability } from '../../src/providers/serverReachability';
import { server } from './msw';

// The first render of the whole admin (lazy pages included) takes a few seconds in jsdom, and many
// times that when the worker gets a fraction of a core beside the browser tests: a wait for something
// to appear is a hang detector, not a speed check.
configure({ asyncUtilTimeout: 30_000 });

// jsdom has no matchMedia. MUI's useMediaQuery (responsive sidebar, drawer) needs one that
// answers width queries against window.innerWidth, so tests can resize the window.
const matchesWidth = (query: string) => {
  const width = window.innerWidth;
  const min = /min-width:\s*([\d.]+)px/.exec(query);
  const max = /max-width:\s*([\d.]+)px/.exec(query);
  if (!min && !max) return false; // e.g. prefers-color-scheme: answer "no preference"
  return (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
};

Object.defineProperty(window, 'matchMedia', {
  configurable: true,
  writable: true,
  value: (query: string): MediaQueryList => ({
    media: query,
    matches: matchesWidth(query),
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }),
});

// A request no handler answers fails the test that made it: msw's own 'error' only logs and rejects
// the fetch, which a component may swallow (a section showing its error state), so the run stayed green.
const unhandledRequests: string[] = [];
beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request, print) => {
      const url = new URL(request.url);
      unhandledRequests.push(`${request.method} ${url.pathname}${url.search}`);
      print.error(); // and the fetch fails, as before, instead of reaching the network
    },
  }),
);
// MUI's styles go into Emotion's default cache, one rule per <style> element, and stay there: the files
// share their worker's window, so a file ran with every rule all earlier files had rendered. jsdom's
// getComputedStyle walks every rule for every element it is asked about (Testing Library's role and
// name queries ask for each element and its ancestors), and most of the console tests' time went
// there. Once a test's app is unmounted its rules are dropped; the next render inserts what it uses.
let emotionCache: EmotionCache | null = null;
renderToStaticMarkup(
  createElement(() => {
    emotionCache = __unsafe_useEmotionCache();
    return null;
  }),
);
const dropUnmountedStyles = () => {
  if (!emotionCache) return;
  emotionCache.sheet.flush();
  for (const name of Object.keys(emotionCache.inserted)) delete emotionCache.inserted[name];
};

afterEach(() => {
  cleanup();
  dropUnmountedStyles();
  server.resetHandlers();
  server.events.removeAllListeners();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
  // The page's one reachability outlives the app a test rendered (the files share the window): an
  // outage a test caused, on purpose or by a call that failed, ends with it and stops its probes.
  serverReachability.answered();
  const unhandled = unhandledRequests.splice(0);
  if (unhandled.length > 0) {
    throw new Error(`The fake backend has no handler for ${unhandled.length} request(s):\n${[...new Set(unhandled)].join('\n')}`);
  }
});
afterAll(() => {
  server.close();
  // The console files share their worker's window (vitest.config.ts: isolate: false); a file that
  // sized it for a phone or a wide desktop does not size the next one. jsdom starts at 1024 × 768.
  window.innerWidth = 1024;
  window.innerHeight = 768;
});
