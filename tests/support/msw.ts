import type { ClientGlance } from '@contract/glance';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import type { IsAuthenticatedResponse, SignedInUser } from '@contract/auth';
import type { MrrResponse } from '@contract/revenue';

/** A client with nothing recorded yet, at a glance: tests spread their facts over it. */
export const EMPTY_GLANCE: ClientGlance = {
  member_since: null,
  last_class: null,
  last_stream: null,
  level_name: null,
  plan: null,
  override_ends_at: null,
  lifetime_purchases: 0,
  platforms: [],
  push_reachable: false,
  mindbody_status: 'Pending',
  mindbody_linked: false,
  tags: [],
  phone: null,
  visits_total: 0,
  visits_30d: 0,
  days_since_last_visit: null,
  total_spent_usd: null,
  last_app_open: null,
  upcoming_classes: [],
};

/**
 * The client page's profile calls (timeline, notes, tags, at a glance) answer "nothing
 * yet" for any client unless a test says otherwise, so the many tests of other parts of that page
 * need no handlers of their own; tests/console/client-profile.test.tsx and override-management.test.tsx answer them for real.
 * So do the video categories the dashboard looks the most popular one up in (its card's link).
 * So does the dashboard's MRR card.
 */
const clientProfileDefaults = [
  // A client's data rights: not erased, nobody looked (tests/console/client-data-rights.test.tsx answers them for real).
  http.get('*/api/admin/v1/clients/:id/erasure', () => HttpResponse.json({ erasure: null })),
  http.get('*/api/admin/v1/clients/:id/looks', () => HttpResponse.json({ looks: [] })),
  http.get('*/api/admin/v1/clients/:id/timeline', () => HttpResponse.json({ entries: [], next: null })),
  http.get('*/api/admin/v1/clients/:id/notes', () => HttpResponse.json({ notes: [] })),
  http.get('*/api/admin/v1/clients/:id/tags', () => HttpResponse.json({ tags: [] })),
  http.get('*/api/admin/v1/video-categories', () => HttpResponse.json([], { headers: { 'content-range': 'video-categories */0' } })),
  http.get('*/api/admin/v1/clients/:id/glance', () => HttpResponse.json(EMPTY_GLANCE)),
  // The dashboard's MRR card (roles with 'revenue.read'): no revenue recorded yet.
  http.get('*/api/admin/v1/revenue/mrr', () => HttpResponse.json({ periods: [], as_of: new Date().toISOString() } satisfies MrrResponse)),
];

/**
 * One msw server for the console tests; tests add handlers with `server.use(...)` (reset after each test).
 * The sidebar's saved segments (under Clients, on every screen) answer none unless a test says otherwise.
 */
export const server = setupServer(
  http.get('*/api/admin/v1/segments', () => HttpResponse.json([], { headers: { 'content-range': 'segments */0' } })),
  ...clientProfileDefaults,
);

export const testUser: SignedInUser = {
  picture: 'https://avatars.example.com/admin.png',
  nickname: 'admin',
  email: 'admin@localhost',
};

// '*' in front matches any origin and server prefix, so the same handlers serve every config.
export const answerIsAuthenticated = (answer: IsAuthenticatedResponse) => http.get('*/api/isAuthenticated', () => HttpResponse.json(answer));

export const signedIn = (user: SignedInUser = testUser) => answerIsAuthenticated({ isAuthenticated: true, user });
export const signedOut = () => answerIsAuthenticated({ isAuthenticated: false, user: null });

export const jsonAnswer = (path: string, body: JsonBodyType, status = 200) => http.get(`*${path}`, () => HttpResponse.json(body, { status }));

/** The dashboard's two calls, for tests that pass through the dashboard without looking at it. */
export const dashboardCalls = () => [
  jsonAnswer('/api/stats/v1', { errors: [], result: { subscribers: 10, daily_plays: 2, most_popular: 'Yoga' } }),
  jsonAnswer('/api/admin/v1/stats/trends', { daily_plays: [], paid_subscribers: [] }),
];

/** A promise with its resolve function exposed, to hold an answer until the test releases it. */
export const deferred = <T = void>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
};
