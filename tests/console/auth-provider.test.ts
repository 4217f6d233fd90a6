import { describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { createAuthProvider, USER_STORAGE_KEY } from '../../src/providers/authProvider';
import { createConfig, type ConsoleEnv } from '../../src/providers/config';
import { server, signedIn, signedOut, testUser } from '../support/msw';
import type { IsAuthenticatedResponse, SignedInUser } from '@contract/auth';
import { SESSION_STATE_ELEMENT_ID } from '@contract/pageState';

const setup = (env: ConsoleEnv = {}) => {
  const redirect = vi.fn<(url: string) => void>();
  const authProvider = createAuthProvider({ config: createConfig(env), redirect });
  return { authProvider, redirect };
};

const recordRequests = () => {
  const requests: Request[] = [];
  server.events.on('request:start', ({ request }) => {
    requests.push(request);
  });
  return requests;
};

describe('authProvider.checkAuth', () => {
  it('resolves for a signed-in session and exposes the user as the identity', async () => {
    server.use(signedIn());
    const { authProvider, redirect } = setup();

    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();

    await expect(authProvider.getIdentity!()).resolves.toEqual({
      id: testUser.email,
      fullName: testUser.nickname,
      avatar: testUser.picture,
      email: testUser.email,
      nickname: testUser.nickname,
      picture: testUser.picture,
    });
    expect(JSON.parse(window.localStorage.getItem(USER_STORAGE_KEY) ?? 'null')).toEqual(testUser);
    expect(redirect).not.toHaveBeenCalled();
  });

  it('asks the same origin by default, sending the session cookie', async () => {
    server.use(signedIn());
    const requests = recordRequests();
    const { authProvider } = setup();

    await authProvider.checkAuth({});

    expect(requests.map((request) => request.url)).toEqual([`${window.location.origin}/api/isAuthenticated`]);
    expect(requests[0].credentials).toBe('include');
  });

  it('sends the browser to the backend login page and rejects without a react-admin login page', async () => {
    server.use(signedOut());
    const { authProvider, redirect } = setup();

    await expect(authProvider.checkAuth({})).rejects.toEqual({ redirectTo: false, message: false });

    expect(redirect).toHaveBeenCalledExactlyOnceWith('/login');
    await expect(authProvider.getIdentity!()).rejects.toThrow();
  });

  it('tells the login page which console page to come back to after signing in', async () => {
    server.use(signedOut());
    window.history.pushState(null, '', '/client/42?search=customers#history');
    const { authProvider, redirect } = setup();

    await expect(authProvider.checkAuth({})).rejects.toBeDefined();

    expect(redirect).toHaveBeenCalledExactlyOnceWith(`/login?next=${encodeURIComponent('/client/42?search=customers#history')}`);
  });

  it('tells the login page where to come back to when a call answers 401 too, but not an outside login page', async () => {
    window.history.pushState(null, '', '/videos?page=2');
    const own = setup();
    await expect(own.authProvider.checkError({ status: 401 })).rejects.toBeDefined();
    expect(own.redirect).toHaveBeenCalledExactlyOnceWith('/login?next=%2Fvideos%3Fpage%3D2');

    // An identity provider's page (or the API on another origin) would read a path as its own.
    const outside = setup({ VITE_LOGIN_URL: 'https://sso.studio.test/authorize?app=console' });
    await expect(outside.authProvider.checkError({ status: 401 })).rejects.toBeDefined();
    expect(outside.redirect).toHaveBeenCalledExactlyOnceWith('https://sso.studio.test/authorize?app=console');
  });

  it('puts the API base URL and server prefix in front of both the check and the login path', async () => {
    server.use(signedOut());
    const requests = recordRequests();
    const { authProvider, redirect } = setup({
      VITE_API_BASE_URL: 'https://api.studio.test/',
      VITE_SERVER_PREFIX: '/console-api',
    });

    await expect(authProvider.checkAuth({})).rejects.toBeDefined();

    expect(requests[0].url).toBe('https://api.studio.test/console-api/api/isAuthenticated');
    expect(redirect).toHaveBeenCalledExactlyOnceWith('https://api.studio.test/console-api/login');
  });

  it('uses an absolute VITE_LOGIN_URL as it is', async () => {
    server.use(signedOut());
    const { authProvider, redirect } = setup({
      VITE_SERVER_PREFIX: '/console-api',
      VITE_LOGIN_URL: 'https://sso.studio.test/authorize?app=console',
    });

    await expect(authProvider.checkAuth({})).rejects.toBeDefined();

    expect(redirect).toHaveBeenCalledExactlyOnceWith('https://sso.studio.test/authorize?app=console');
  });

  it('treats a failing check (500) as signed out', async () => {
    server.use(http.get('*/api/isAuthenticated', () => HttpResponse.json({ message: 'boom' }, { status: 500 })));
    const { authProvider, redirect } = setup({ VITE_LOGIN_URL: '/auth/login' });

    await expect(authProvider.checkAuth({})).rejects.toBeDefined();

    expect(redirect).toHaveBeenCalledExactlyOnceWith('/auth/login');
  });

  it('does not turn the login redirect into a logout when react-admin logs out after the failed check', async () => {
    server.use(signedOut());
    const { authProvider, redirect } = setup();

    await expect(authProvider.checkAuth({})).rejects.toBeDefined();
    void authProvider.logout({});

    expect(redirect.mock.calls).toEqual([['/login']]);
  });
});

/** A console page as the server sends it, carrying its session state (server/src/routes/console.ts). */
const pageSaying = (text: string) => {
  const page = document.implementation.createHTMLDocument('console');
  const element = page.createElement('script');
  element.type = 'application/json';
  element.id = SESSION_STATE_ELEMENT_ID;
  element.textContent = text;
  page.head.append(element);
  return page;
};
const pageWith = (answer: IsAuthenticatedResponse) => pageSaying(JSON.stringify(answer));

// A cold load renders without waiting for /api/isAuthenticated.
describe('authProvider.checkAuth on a page that carries its session state', () => {
  it('takes its first answer from the page, asking nothing, and asks the server from then on', async () => {
    server.use(signedIn());
    const requests = recordRequests();
    const redirect = vi.fn<(url: string) => void>();
    const authProvider = createAuthProvider({ config: createConfig({}), redirect, page: pageWith({ isAuthenticated: true, user: testUser }) });

    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
    expect(requests).toEqual([]);
    await expect(authProvider.getIdentity!()).resolves.toMatchObject({ email: testUser.email });

    server.use(signedOut());
    await expect(authProvider.checkAuth({})).rejects.toEqual({ redirectTo: false, message: false });
    expect(requests.map((request) => new URL(request.url).pathname)).toEqual(['/api/isAuthenticated']);
    expect(redirect).toHaveBeenCalledExactlyOnceWith('/login');
  });

  it('sends the browser to the login page at once when the page says signed out', async () => {
    const requests = recordRequests();
    const redirect = vi.fn<(url: string) => void>();
    const authProvider = createAuthProvider({ config: createConfig({}), redirect, page: pageWith({ isAuthenticated: false, user: null }) });

    await expect(authProvider.checkAuth({})).rejects.toEqual({ redirectTo: false, message: false });
    expect(requests).toEqual([]);
    expect(redirect).toHaveBeenCalledExactlyOnceWith('/login');
  });

  it('asks the server when the page state is broken or not an answer', async () => {
    for (const text of ['{"isAuthenticated":', '"yes"', '{"isAuthenticated":"true","user":null}', '{"isAuthenticated":true}']) {
      server.use(signedIn());
      const requests = recordRequests();
      const authProvider = createAuthProvider({ config: createConfig({}), redirect: vi.fn(), page: pageSaying(text) });
      await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
      expect(requests.map((request) => new URL(request.url).pathname)).toEqual(['/api/isAuthenticated']);
      server.events.removeAllListeners();
    }
  });

  it("ignores the page's state when the API is another backend: that session is the one that counts", async () => {
    server.use(http.get('https://api.studio.test/api/isAuthenticated', () => HttpResponse.json({ isAuthenticated: false, user: null })));
    const redirect = vi.fn<(url: string) => void>();
    const authProvider = createAuthProvider({
      config: createConfig({ VITE_API_BASE_URL: 'https://api.studio.test' }),
      redirect,
      page: pageWith({ isAuthenticated: true, user: testUser }),
    });

    await expect(authProvider.checkAuth({})).rejects.toEqual({ redirectTo: false, message: false });
    expect(redirect).toHaveBeenCalledExactlyOnceWith('https://api.studio.test/login');
  });
});

describe('authProvider.checkError', () => {
  it('sends the browser to the login page on 401', async () => {
    const { authProvider, redirect } = setup({ VITE_SERVER_PREFIX: '/srv' });

    await expect(authProvider.checkError({ status: 401, message: 'Unauthorized' })).rejects.toMatchObject({
      message: false,
    });

    expect(redirect).toHaveBeenCalledExactlyOnceWith('/srv/login');
  });

  it("rejects on 403 but keeps the session, with the server's reason to show", async () => {
    const { authProvider, redirect } = setup();
    const reason =
      "Your role (front_desk) does not allow this: it needs the 'clients.override' permission (grant or end an access-level override, favorites changes). Ask an owner to change your role.";

    await expect(authProvider.checkError({ status: 403, message: 'Forbidden', body: { message: reason } })).rejects.toEqual({
      logoutUser: false,
      message: reason,
    });
    await expect(authProvider.checkError({ status: 403, message: 'Forbidden' })).rejects.toEqual({
      logoutUser: false,
      message: 'ra.notification.not_authorized',
    });

    expect(redirect).not.toHaveBeenCalled();
  });

  it('lets other errors (500) through without leaving the page', async () => {
    const { authProvider, redirect } = setup();

    await expect(authProvider.checkError({ status: 500, message: 'Server Error' })).resolves.toBeUndefined();
    await expect(authProvider.checkError(new Error('offline'))).resolves.toBeUndefined();

    expect(redirect).not.toHaveBeenCalled();
  });
});

describe('authProvider.logout', () => {
  it("sends the browser to the server's /logout and forgets the user", async () => {
    server.use(signedIn());
    const { authProvider, redirect } = setup({ VITE_API_BASE_URL: 'https://api.studio.test', VITE_SERVER_PREFIX: 'srv' });
    await authProvider.checkAuth({});

    void authProvider.logout({});

    expect(redirect).toHaveBeenCalledExactlyOnceWith('https://api.studio.test/srv/logout');
    expect(window.localStorage.getItem(USER_STORAGE_KEY)).toBeNull();
    await expect(authProvider.getIdentity!()).rejects.toThrow();
  });

  it('signs in through the backend only: login() does nothing', async () => {
    const { authProvider, redirect } = setup();

    await expect(authProvider.login({})).resolves.toBeUndefined();

    expect(redirect).not.toHaveBeenCalled();
  });
});

describe('authProvider.canAccess', () => {
  const signedInAs = async (user: SignedInUser) => {
    server.use(signedIn(user));
    const { authProvider } = setup();
    await authProvider.checkAuth({});
    return (resource: string, action: string) => authProvider.canAccess!({ resource, action });
  };

  it("follows the role's permissions from isAuthenticated", async () => {
    const can = await signedInAs({ ...testUser, role: 'front_desk', permissions: ['clients.read', 'clients.push', 'dashboard.read', 'signed_in'] });
    expect(await can('clients-all', 'list')).toBe(true);
    expect(await can('clients', 'show')).toBe(true);
    expect(await can('clients', 'push')).toBe(true);
    expect(await can('clients', 'override')).toBe(false);
    expect(await can('audit', 'list')).toBe(false);
    expect(await can('messaging', 'edit')).toBe(false);
    expect(await can('staff', 'list')).toBe(false);
    expect(await can('sessions', 'list')).toBe(true);
    // Default deny: a resource or an action the table does not know.
    expect(await can('clients', 'delete')).toBe(false);
    expect(await can('payroll', 'list')).toBe(false);
  });

  it('shows everything in front of a backend that sends no permissions (spec §7), and nothing before sign-in', async () => {
    const can = await signedInAs(testUser);
    expect(await can('staff', 'list')).toBe(true);
    window.localStorage.removeItem(USER_STORAGE_KEY);
    const { authProvider: beforeSignIn } = setup();
    expect(await beforeSignIn.canAccess!({ resource: 'clients', action: 'list' })).toBe(false);
  });
});
