import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ROLE_PERMISSIONS, ROLES, PERMISSION_NAMES, type Permission, type Role } from '@contract/permissions';
import type { Database } from '../../server/src/db/client';
import { decideAccess, NO_PERMISSION_DECLARED, undeclaredRoutes } from '../../server/src/auth/access';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { testDatabases } from '../support/databases';
import { createTestApp, signIn, testClock } from '../support/server';

/** An audit_log row as the tests read it. */
interface AuditRow {
  id: number;
  action: string;
  staff_email: string | null;
  target_type: string;
  target_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/**
 * The issue's matrix, written out here on its own (not read from contract/permissions.ts), so a
 * change to the table in the code has to agree with what the studio was promised.
 */
const EVERYONE: Role[] = ['owner', 'manager', 'front_desk', 'content'];
const ISSUE_MATRIX: Record<Permission, Role[]> = {
  'clients.read': ['owner', 'manager', 'front_desk'],
  'clients.push': ['owner', 'manager', 'front_desk'],
  'clients.override': ['owner', 'manager'],
  // Front desk staff note what members tell them
  'clients.notes': ['owner', 'manager', 'front_desk'],
  // The studio's shared segments are changed by those who run it, not the front desk
  'segments.edit': ['owner', 'manager'],
  'messaging.edit': ['owner', 'manager'],
  'videos.edit': ['owner', 'manager', 'content'],
  'mindbody.import': ['owner', 'manager'],
  'audit.read': ['owner', 'manager'],
  'dashboard.read': EVERYONE,
  'staff.manage': ['owner'],
  // a client's data rights: owner and manager export and erase; only owners see who looked
  'clients.erase': ['owner', 'manager'],
  'clients.looks': ['owner'],
  // the Revenue area: an owner's and a manager's figures
  'revenue.read': ['owner', 'manager'],
  signed_in: EVERYONE,
};

/** The calls the issue names, and the permission each must keep. */
const NAMED_ROUTES: [string, Permission][] = [
  ['GET /api/client/v1/clients/:listId', 'clients.read'],
  ['GET /api/client/v1/client-details/:id', 'clients.read'],
  ['POST /1/indexes/:index/queries', 'clients.read'],
  ['POST /api/client/v1/client-details/push-notification', 'clients.push'],
  ['GET /api/v1/sync/contracts/:siteId/:mbClientId', 'clients.push'],
  ['POST /api/client/v1/client-details/update-access-level', 'clients.override'],
  ['POST /api/client/v1/client-details/favorites-videos-update', 'clients.override'],
  ['POST /api/client/v1/messaging/update', 'messaging.edit'],
  ['PUT /api/admin/v1/automated-messages/:typeId/settings', 'messaging.edit'],
  ['PUT /api/admin/v1/videos/:id', 'videos.edit'],
  ['GET /api/v1/sync/all-vimeo-videos', 'videos.edit'],
  ['POST /api/admin/v1/mindbody/sync', 'mindbody.import'],
  ['GET /api/admin/v1/audit', 'audit.read'],
  ['GET /api/admin/v1/audit/export', 'audit.read'],
  ['GET /api/stats/v1', 'dashboard.read'],
  ['GET /api/admin/v1/staff', 'staff.manage'],
  ['PUT /api/admin/v1/staff/:id', 'staff.manage'],
  ['POST /api/admin/v1/account/password', 'signed_in'],
  ['GET /api/admin/v1/sessions', 'signed_in'],
  // Broadcasts and bulk overrides need the override/template permission, bulk push the push permission
  ['POST /api/admin/v1/broadcasts', 'messaging.edit'],
  ['POST /api/admin/v1/bulk/push', 'clients.push'],
  ['POST /api/admin/v1/bulk/override', 'clients.override'],
  ['GET /api/admin/v1/revenue/summary', 'revenue.read'],
  ['GET /api/admin/v1/revenue/mrr-movement', 'revenue.read'],
  ['GET /api/admin/v1/revenue/cohorts', 'revenue.read'],
  // Front desk reads and uses segments; saving, changing and deleting them is 'segments.edit'
  ['GET /api/admin/v1/segments', 'clients.read'],
  ['POST /api/admin/v1/segments', 'segments.edit'],
  ['PUT /api/admin/v1/segments/:id', 'segments.edit'],
  ['DELETE /api/admin/v1/segments/:id', 'segments.edit'],
];

const SEARCH = { appId: 'STUDIOROLES', key: 'search-only-key-for-the-role-tests' };
const password = 'a-password-for-roles';
const account = (role: Role) => ({ email: `${role.replace('_', '-')}@studio.test`, password, role });

describe('the matrix', () => {
  it('gives each role exactly what the issue lists', () => {
    for (const role of ROLES) {
      const expected = PERMISSION_NAMES.filter((permission) => ISSUE_MATRIX[permission].includes(role));
      expect([...ROLE_PERMISSIONS[role]].sort(), role).toEqual(expected.sort());
    }
  });

  it('refuses a route that declares no permission, or an unknown one, to every role (default deny)', () => {
    for (const role of ROLES) {
      expect(decideAccess({}, role)).toEqual({ allowed: false, permission: null, message: NO_PERMISSION_DECLARED });
      expect(decideAccess({ permission: 'clients.everything' }, role).allowed).toBe(false);
    }
    expect(decideAccess({ permission: 'clients.read' }, 'janitor').allowed).toBe(false);
    expect(decideAccess({ permission: 'clients.read' }, 'front_desk')).toEqual({ allowed: true });
  });

  it('names each route that is neither public nor declares exactly one known permission', () => {
    expect(
      undeclaredRoutes([
        { method: 'GET', url: '/fine', public: false, permission: 'clients.read' },
        { method: 'GET', url: '/open', public: true, permission: undefined },
        { method: 'GET', url: '/forgotten', public: false, permission: undefined },
        { method: 'PUT', url: '/typo', public: false, permission: 'client.read' },
        { method: 'POST', url: '/both', public: true, permission: 'clients.read' },
      ]),
    ).toEqual(['GET /forgotten', "PUT /typo (unknown permission 'client.read')", 'POST /both (public and a permission at once)']);
  });
});

describe.each(testDatabases())('every route for every role on $name', ({ open }) => {
  let database: Database;
  let app: FastifyInstance;
  const clock = testClock();
  const cookies = {} as Record<Role, string>;

  beforeAll(async () => {
    database = await open();
    app = await createTestApp(database, { clock, env: { SEARCH_APP_ID: SEARCH.appId, SEARCH_API_KEY: SEARCH.key } });
    for (const role of ROLES) cookies[role] = await signIn(app, account(role));
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const guarded = () => app.routeTable.filter((route) => !route.public && route.method !== 'OPTIONS');
  // Ids no record has: a permitted call reaches its handler and finds nothing to change.
  const samplePath = (url: string) => url.replace(/:[A-Za-z_]+/g, '999999').replace(/\*/g, 'x');
  const send = (method: string, url: string, role: Role) =>
    app.inject({
      method: method as 'GET',
      url: samplePath(url),
      headers: { cookie: cookies[role], 'x-algolia-application-id': SEARCH.appId, 'x-algolia-api-key': SEARCH.key },
      ...(['GET', 'HEAD', 'DELETE'].includes(method) ? {} : { payload: {} }),
    });

  it('has a known permission on every route that is not public, so the server started', () => {
    expect(undeclaredRoutes(app.routeTable)).toEqual([]);
    expect(guarded().length).toBeGreaterThan(60);
  });

  it("is listed route by route, under its permission, in docs/security.md's table", () => {
    const doc = fs.readFileSync('docs/security.md', 'utf8');
    const table = doc.slice(doc.indexOf('## Roles and permissions'), doc.indexOf('## Running it safely'));
    const listed = new Map<string, string>();
    for (const [, permission, routes] of table.matchAll(/^\| `([a-z_.]+)` \| (.+) \|$/gm)) {
      for (const [, route] of routes!.matchAll(/`([A-Z]+ \/[^`]*)`/g)) listed.set(route!, permission!);
    }
    // '`GET /api/docs` and its files': the API docs' own files are one line.
    const key = (route: { method: string; url: string }) => (route.url.startsWith('/api/docs') ? 'GET /api/docs' : `${route.method} ${route.url}`);
    const declared = new Map(
      guarded()
        .filter((route) => route.method !== 'HEAD')
        .map((route) => [key(route), route.permission as string]),
    );
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(declared));
  });

  it('keeps the permission of each call the issue names', () => {
    const declared = new Map(app.routeTable.map((route) => [`${route.method} ${route.url}`, route.permission]));
    for (const [route, permission] of NAMED_ROUTES) expect(declared.get(route), route).toBe(permission);
  });

  it('answers 403 naming the missing permission exactly where the matrix says no, and audits each refusal', async () => {
    const wrong: string[] = [];
    let refusals = 0;
    for (const role of ROLES) {
      for (const route of guarded()) {
        // Past the audit's refusal budget (30 a minute) a refusal would only be logged.
        clock.advance(2_100);
        const response = await send(route.method, route.url, role);
        const permission = route.permission as Permission;
        const allowed = ISSUE_MATRIX[permission].includes(role);
        const where = `${role} ${route.method} ${route.url} → ${response.statusCode}`;
        if (allowed) {
          // A second look before a dangerous action (its sign-in is older than REAUTH_MINUTES on this clock) is not a refusal by role.
          const reauth = response.statusCode === 403 && (response.json() as { reauth_required?: boolean }).reauth_required === true;
          if ((response.statusCode === 403 && !reauth) || response.statusCode === 401)
            wrong.push(`${where} (should be allowed) ${response.body.slice(0, 120)}`);
          continue;
        }
        refusals += 1;
        const message = route.method === 'HEAD' ? '' : ((response.json() as { message?: string }).message ?? '');
        if (response.statusCode !== 403) wrong.push(`${where} (should be refused)`);
        else if (route.method !== 'HEAD' && !(message.includes(`'${permission}'`) && message.includes(role))) wrong.push(`${where}: ${message}`);
      }
    }
    expect(wrong).toEqual([]);
    const audited = await app.database.query<AuditRow>("SELECT * FROM audit_log WHERE action = 'auth.access_denied'");
    expect(audited).toHaveLength(refusals);
    const frontDesk = audited.find(
      (entry) => entry.target_id === 'POST /api/client/v1/client-details/update-access-level' && entry.staff_email === 'front-desk@studio.test',
    );
    expect(frontDesk).toMatchObject({
      staff_email: 'front-desk@studio.test',
      target_type: 'route',
      after: { permission: 'clients.override', role: 'front_desk' },
    });
  });

  it("answers the search protocol's refusal in Algolia's shape", async () => {
    const response = await send('POST', '/1/indexes/:index/query', 'content');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: expect.stringContaining("'clients.read'"), status: 403 });
  });

  it('audits at most 30 refusals a minute per account, and still refuses every one', async () => {
    clock.advance(120_000);
    const before = await app.database.query<AuditRow>("SELECT * FROM audit_log WHERE action = 'auth.access_denied' AND staff_email = 'content@studio.test'");
    const answers = await Promise.all(Array.from({ length: 40 }, () => send('GET', '/api/admin/v1/audit', 'content')));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(40).fill(403));
    const after = await app.database.query<AuditRow>("SELECT * FROM audit_log WHERE action = 'auth.access_denied' AND staff_email = 'content@studio.test'");
    expect(after.length - before.length).toBe(30);
  });
});

describe.each(testDatabases())('a route without a permission on $name', ({ open }) => {
  it('stops the server at start, naming the route', async () => {
    const database = await open();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', CONSOLE_DIR: '/nonexistent', MINDBODY_SYNC_INTERVAL_MINUTES: '0' });
    const app = await buildApp({ config, database, logger: false });
    app.get('/api/admin/v1/forgotten', async () => ({ secret: true }));
    app.post('/api/admin/v1/mistyped', { config: { permission: 'client.push' as Permission } }, async () => ({}));
    await expect(app.ready()).rejects.toThrow(/GET \/api\/admin\/v1\/forgotten[\s\S]*POST \/api\/admin\/v1\/mistyped \(unknown permission 'client\.push'\)/);
    await app.close().catch(() => undefined);
    await database.close();
  });
});
