import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import type { IsAuthenticatedResponse, SignedInUser } from '../../contract/auth';

/** One msw server for the console tests; tests add handlers with `server.use(...)`. */
export const server = setupServer();

export const testUser: SignedInUser = {
  picture: 'https://avatars.example.com/admin.png',
  nickname: 'admin',
  email: 'admin@localhost',
};

// '*' in front matches any origin and server prefix, so the same handlers serve every config.
export const answerIsAuthenticated = (answer: IsAuthenticatedResponse) =>
  http.get('*/api/isAuthenticated', () => HttpResponse.json(answer));

export const signedIn = (user: SignedInUser = testUser) => answerIsAuthenticated({ isAuthenticated: true, user });
export const signedOut = () => answerIsAuthenticated({ isAuthenticated: false, user: null });

export const jsonAnswer = (path: string, body: JsonBodyType, status = 200) =>
  http.get(`*${path}`, () => HttpResponse.json(body, { status }));

/** A promise with its resolve function exposed, to hold an answer until the test releases it. */
export const deferred = <T = void>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
};
