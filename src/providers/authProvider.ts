import type { AuthProvider, UserIdentity } from 'react-admin';
import type { IsAuthenticatedResponse, SignedInUser } from '@contract/auth';
import { consolePermission } from '@contract/permissions';
import { SESSION_STATE_ELEMENT_ID } from '@contract/pageState';
import { config as defaultConfig, type ConsoleConfig } from './config';
import { createHttpClient, hasStatus, type HttpClient } from './http';

/**
 * The session lives on the backend. The console only asks whether it is
 * signed in; signing in and out happen on server pages the browser is sent to.
 */
export interface AuthProviderOptions {
  config?: Pick<ConsoleConfig, 'apiUrl' | 'loginUrl' | 'logoutUrl'>;
  http?: HttpClient;
  /** Full-page navigation; injectable because jsdom cannot navigate. */
  redirect?: (url: string) => void;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  /** The page the browser is on (path, query, fragment); injectable for tests. */
  currentPage?: () => string;
  /** The console's page, which may carry the server's session state (contract/pageState.ts). */
  page?: Pick<Document, 'getElementById'> | null;
}

export type ConsoleIdentity = UserIdentity & SignedInUser;

export const USER_STORAGE_KEY = 'studio-console.user';

const browserRedirect = (url: string) => {
  window.location.href = url;
};

const browserPage = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

/**
 * Our server's login page is told which page to come back to after sign-in (it keeps only a path
 * of its own: server/src/auth/returnPath.ts). A login URL on another origin (an identity
 * provider, an API elsewhere) is left alone: it would read our path as one of its own.
 */
export const loginUrlReturningTo = (loginUrl: string, page: string) => {
  if (!loginUrl.startsWith('/') || loginUrl.startsWith('//') || page === '' || page === '/') return loginUrl;
  return `${loginUrl}${loginUrl.includes('?') ? '&' : '?'}next=${encodeURIComponent(page)}`;
};

const browserStorage = () => {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage can be disabled by browser privacy settings
  }
};

const readStoredUser = (storage: AuthProviderOptions['storage']): SignedInUser | null => {
  try {
    const raw = storage?.getItem(USER_STORAGE_KEY);
    return raw ? (JSON.parse(raw) as SignedInUser) : null;
  } catch {
    return null;
  }
};

/**
 * The isAuthenticated answer our server put into the page, or null. Only when the API is this page's
 * own server: in front of another backend, that backend's session is the one that counts.
 */
export const readPageSession = (
  page: AuthProviderOptions['page'],
  apiUrl: string = defaultConfig.apiUrl('/api/isAuthenticated'),
): IsAuthenticatedResponse | null => {
  if (!page || !apiUrl.startsWith('/') || apiUrl.startsWith('//')) return null;
  try {
    const answer = JSON.parse(page.getElementById(SESSION_STATE_ELEMENT_ID)?.textContent ?? 'null') as Partial<IsAuthenticatedResponse> | null;
    if (typeof answer !== 'object' || answer === null || typeof answer.isAuthenticated !== 'boolean') return null;
    if (answer.isAuthenticated && (typeof answer.user !== 'object' || answer.user === null)) return null;
    return answer as IsAuthenticatedResponse;
  } catch {
    return null;
  }
};

/** What canAccess answers for `user`: nothing before sign-in, everything when the backend sends no permissions. */
export const allows = (user: SignedInUser | null, resource: string, action: string) => {
  if (!user) return false;
  if (!user.permissions) return true;
  const permission = consolePermission(resource, action);
  return permission !== undefined && user.permissions.includes(permission);
};

// `redirectTo: false` + `message: false` stop react-admin from showing its own
// login page or an error toast: the browser is already leaving for the backend.
const leavingError = () => ({ redirectTo: false as const, message: false as const });

// Once a full-page navigation has started nothing else must happen in this page
// (react-admin would otherwise reset its store and re-run checkAuth in a loop).
const untilPageUnloads = () => new Promise<never>(() => undefined);

export const createAuthProvider = (options: AuthProviderOptions = {}): AuthProvider => {
  const config = options.config ?? defaultConfig;
  const http = options.http ?? createHttpClient(config);
  const redirect = options.redirect ?? browserRedirect;
  const storage = options.storage === undefined ? browserStorage() : options.storage;
  const currentPage = options.currentPage ?? browserPage;
  const signInUrl = () => loginUrlReturningTo(config.loginUrl(), currentPage());

  let user = readStoredUser(storage);
  // Whether this page's own check has answered: until then `user` may be a stored one.
  let checked = false;
  let leaving = false;
  // Used by the first check only (a cold load renders without the round trip); every later check asks.
  let pageSession = readPageSession(options.page === undefined ? globalThis.document : options.page, config.apiUrl('/api/isAuthenticated'));

  const remember = (signedIn: SignedInUser | null) => {
    user = signedIn;
    if (signedIn) storage?.setItem(USER_STORAGE_KEY, JSON.stringify(signedIn));
    else storage?.removeItem(USER_STORAGE_KEY);
  };
  const leaveFor = (url: string) => {
    remember(null);
    leaving = true;
    redirect(url);
  };

  return {
    // Sign-in happens on the backend's login page, never in the console.
    login: async () => undefined,

    checkAuth: async () => {
      if (leaving) throw leavingError();
      let answer: IsAuthenticatedResponse | undefined;
      if (pageSession) {
        answer = pageSession;
        pageSession = null;
      } else {
        try {
          answer = (await http('/api/isAuthenticated')).json as IsAuthenticatedResponse;
        } catch (error) {
          // Unreachable or failing server: a session this page knows stays (the outage banner says
          // so and pages recover when it is back); only a reachable server's "no" or 401 signs out.
          if (user && !(hasStatus(error) && error.status === 401)) return;
          answer = undefined; // no session known: same as signed out
        }
      }
      if (answer?.isAuthenticated === true) {
        remember(answer.user ?? null);
        checked = true;
        return;
      }
      leaveFor(signInUrl());
      throw leavingError();
    },

    checkError: async (error: unknown) => {
      if (!hasStatus(error)) return;
      if (error.status === 401) {
        if (!leaving) leaveFor(signInUrl());
        throw leavingError();
      }
      // Signed in but refused: keep the session and say why (the server names the missing permission).
      if (error.status === 403) {
        const message = (error as { body?: { message?: unknown } }).body?.message;
        throw { logoutUser: false, message: typeof message === 'string' && message ? message : 'ra.notification.not_authorized' };
      }
    },

    /**
     * What the role may use (contract/permissions.ts), so menus, buttons and screens it may not use
     * are not shown; the server refuses them anyway. A backend that sends no permissions (the spec's
     * isAuthenticated has none) gets everything shown, as before roles.
     */
    canAccess: async ({ resource, action }) => allows(user, resource, action),

    /**
     * canAccess's answer without waiting, once this page's check has said who is signed in (else
     * undefined). The answer depends on nothing else, so react-admin's access checks need not render
     * each screen once more when it arrives (src/providers/queryClient.ts).
     */
    canAccessNow: (resource: string, action: string): boolean | undefined => (checked && !leaving ? allows(user, resource, action) : undefined),

    getPermissions: async () => user?.permissions ?? null,

    logout: () => {
      if (!leaving) leaveFor(config.logoutUrl());
      return untilPageUnloads();
    },

    getIdentity: async (): Promise<ConsoleIdentity> => {
      if (!user) throw new Error('No signed-in user');
      const { picture, nickname, email } = user;
      return { id: email, fullName: nickname, avatar: picture, email, nickname, picture };
    },
  };
};

export const authProvider = createAuthProvider();
