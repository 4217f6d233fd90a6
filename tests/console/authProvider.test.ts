import { describe, expect, it, vi } from 'vitest';
import { http, HttpResponse } from 'msw';
import { createAuthProvider, USER_STORAGE_KEY } from '../../src/providers/authProvider';
import { createConfig, type ConsoleEnv } from '../../src/providers/config';
import { server, signedIn, signedOut, testUser } from '../support/msw';

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

describe('authProvider.checkError', () => {
  it('sends the browser to the login page on 401', async () => {
    const { authProvider, redirect } = setup({ VITE_SERVER_PREFIX: '/srv' });

    await expect(authProvider.checkError({ status: 401, message: 'Unauthorized' })).rejects.toMatchObject({
      message: false,
    });

    expect(redirect).toHaveBeenCalledExactlyOnceWith('/srv/login');
  });

  it('rejects on 403 but keeps the session', async () => {
    const { authProvider, redirect } = setup();

    await expect(authProvider.checkError({ status: 403, message: 'Forbidden' })).rejects.toEqual({ logoutUser: false });

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
