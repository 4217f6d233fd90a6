import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { server } from './msw';

// The first render of the whole admin (lazy pages included) takes a few seconds in jsdom.
configure({ asyncUtilTimeout: 10_000 });

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

// Unexpected calls fail the test instead of silently reaching the network.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  server.events.removeAllListeners();
  window.localStorage.clear();
  window.history.replaceState(null, '', '/');
});
afterAll(() => server.close());
