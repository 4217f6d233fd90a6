import { config as defaultConfig } from './config';

/**
 * Whether the console's server can be reached. A call that finds no server (the browser's network
 * error) or only a proxy's 502/503/504 marks it unreachable; the console then asks again with
 * back-off until it answers, and says so in a banner (src/layout/OutageBanner.tsx). An outage is a
 * state of the page, never a reason to leave it: nothing here signs out or navigates.
 */

/** Seconds between tries while the server is unreachable: 1, 2, 4, 8, 15, then every 30. */
export const PROBE_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

const PROXY_OUTAGE_STATUSES = new Set([502, 503, 504]);

/**
 * True for a failure that says the server is not there: fetch's TypeError, or a 502/503/504 that is
 * not our server's own answer (which carries `{ message }`: an outside service being down is not an outage).
 */
export function isOutage(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { status, body } = error as { status?: unknown; body?: { message?: unknown } | null };
  return typeof status === 'number' && PROXY_OUTAGE_STATUSES.has(status) && typeof body?.message !== 'string';
}

export interface Reachability {
  reachable: boolean;
  /** When the next try is due (ms since the epoch), while unreachable. */
  nextTryAt: number | null;
}

type Probe = () => Promise<boolean>;

/** Asks the server whether it is there: any answer of its own counts, whatever it says. */
const askServer: Probe = async () => {
  try {
    const response = await fetch(defaultConfig.apiUrl('/api/isAuthenticated'), { credentials: 'include', cache: 'no-store' });
    if (!PROXY_OUTAGE_STATUSES.has(response.status)) return true;
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    return typeof body?.message === 'string';
  } catch {
    return false;
  }
};

export function createReachability(options: { probe?: Probe; now?: () => number; schedule?: typeof setTimeout; cancel?: typeof clearTimeout } = {}) {
  const probe = options.probe ?? askServer;
  const now = options.now ?? Date.now;
  const schedule = options.schedule ?? setTimeout;
  const cancel = options.cancel ?? clearTimeout;
  let state: Reachability = { reachable: true, nextTryAt: null };
  let failedTries = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let probing = false;
  const listeners = new Set<() => void>();
  const set = (next: Reachability) => {
    state = next;
    for (const listener of [...listeners]) listener();
  };

  const planNextTry = () => {
    const delay = PROBE_DELAYS_MS[Math.min(failedTries, PROBE_DELAYS_MS.length - 1)]!;
    cancel(timer);
    timer = schedule(() => void tryNow(), delay);
    set({ reachable: false, nextTryAt: now() + delay });
  };

  const answered = () => {
    cancel(timer);
    timer = undefined;
    failedTries = 0;
    if (!state.reachable) set({ reachable: true, nextTryAt: null });
  };

  const tryNow = async () => {
    if (probing || state.reachable) return;
    probing = true;
    const back = await probe();
    probing = false;
    if (back) answered();
    else if (!state.reachable) {
      failedTries += 1;
      planNextTry();
    }
  };

  return {
    get: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** A call failed: an outage starts (or goes on) when the failure says the server is not there. */
    failed(error: unknown) {
      if (!isOutage(error) || !state.reachable) return;
      failedTries = 0;
      planNextTry();
    },
    /** The server answered a call (whatever it said). */
    answered,
    /** "Try now" in the banner. */
    tryNow: () => void tryNow(),
  };
}

export type ServerReachability = ReturnType<typeof createReachability>;

/** The console's: every call through src/providers/http.ts reports to it. */
export const serverReachability = createReachability();
