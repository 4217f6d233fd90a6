import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../server/src/db/client';
import { findStaffByEmail } from '../../server/src/staff/queries';
import { claimValues, roleFromClaim } from '../../server/src/auth/oidcRoles';
import { testDatabases } from '../support/databases';
import { startIdentityProvider, type IdentityAccount, type IdentityProvider, studioPerson } from '../support/identityProvider';
import { createTestApp } from '../support/server';

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

const PUBLIC_URL = 'http://console.studio.test';
const CONSOLE_HOST = new URL(PUBLIC_URL).host;
const ROLE_MAP = 'studio-admins:owner,front:front_desk,video-team:content';

const person = (sub: string, groups?: string[]): IdentityAccount => studioPerson(sub, groups ? { groups } : {});

describe('reading the role claim', () => {
  it('takes a string or the strings of an array, by exact name first and then as a dotted path', () => {
    expect(claimValues({ groups: ['a', 7, 'b'] }, 'groups')).toEqual(['a', 'b']);
    expect(claimValues({ groups: 'a' }, 'groups')).toEqual(['a']);
    expect(claimValues({ groups: { a: true } }, 'groups')).toEqual([]);
    expect(claimValues({ 'https://studio.example/roles': ['x'] }, 'https://studio.example/roles')).toEqual(['x']);
    expect(claimValues({ realm_access: { roles: ['front'] } }, 'realm_access.roles')).toEqual(['front']);
    expect(claimValues({ realm_access: { roles: ['front'] } }, '__proto__.roles')).toEqual([]);
  });

  it("gives the first OIDC_ROLE_MAP entry's role that the person holds, in the map's order", () => {
    const map = [
      ['studio-admins', 'owner'],
      ['front', 'front_desk'],
    ] as const;
    expect(roleFromClaim(['front', 'studio-admins'], map)).toBe('owner');
    expect(roleFromClaim(['front'], map)).toBe('front_desk');
    expect(roleFromClaim(['Studio-Admins'], map)).toBeNull();
    expect(roleFromClaim([], map)).toBeNull();
  });
});

describe.each(testDatabases())('roles from the identity provider on $name', ({ open }) => {
  const boss = person('boss', ['staff', 'studio-admins']);
  const desk = person('desk', ['front']);
  const editor = person('editor', ['video-team']);
  const newcomer = person('newcomer', ['unmapped-group']);
  const both = person('both', ['front', 'studio-admins']);
  const plain = person('plain');
  let idp: IdentityProvider;
  let database: Database;
  let mapped: FastifyInstance;
  let unmapped: FastifyInstance;

  beforeAll(async () => {
    idp = await startIdentityProvider({ redirectUri: `${PUBLIC_URL}/callback`, accounts: [boss, desk, editor, newcomer, both, plain] });
    database = await open();
    const oidc = {
      PUBLIC_URL,
      OIDC_ISSUER_URL: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_ALLOWED_DOMAINS: 'studio.test',
    };
    mapped = await createTestApp(database, { env: { ...oidc, OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: ROLE_MAP, OIDC_EXTRA_SCOPES: 'groups' } });
    unmapped = await createTestApp(database, { env: { ...oidc, OIDC_DEFAULT_ROLE: 'content' } });
  });
  afterAll(async () => {
    await mapped?.close();
    await unmapped?.close();
    await database?.close();
    await idp?.close();
  });

  async function signInAs(app: FastifyInstance, who: IdentityAccount) {
    const start = await app.inject({ method: 'GET', url: '/login', headers: { host: CONSOLE_HOST } });
    const transaction = start.cookies.find((cookie) => cookie.name === 'studio_oidc')!.value;
    const callbackUrl = await idp.signIn(start.headers.location as string, who.sub);
    const response = await app.inject({
      method: 'GET',
      url: `${callbackUrl.pathname}${callbackUrl.search}`,
      headers: { host: CONSOLE_HOST },
      cookies: { studio_oidc: transaction },
    });
    const session = response.cookies.find((cookie) => cookie.name === 'studio_session' && cookie.value !== '')?.value;
    const me = session
      ? (await app.inject({ method: 'GET', url: '/api/isAuthenticated', headers: { host: CONSOLE_HOST }, cookies: { studio_session: session } })).json()
      : null;
    return { response, role: me?.user?.role as string | undefined };
  }

  it('asks for the extra scopes that release the claim', async () => {
    const start = await mapped.inject({ method: 'GET', url: '/login', headers: { host: CONSOLE_HOST } });
    expect(new URL(start.headers.location as string).searchParams.get('scope')?.split(' ')).toEqual(['openid', 'profile', 'email', 'groups']);
  });

  it('sets the role from OIDC_ROLE_MAP, and OIDC_DEFAULT_ROLE (front_desk) for an unmapped group', async () => {
    expect((await signInAs(mapped, boss)).role).toBe('owner');
    expect((await signInAs(mapped, desk)).role).toBe('front_desk');
    expect((await signInAs(mapped, editor)).role).toBe('content');
    expect((await signInAs(mapped, newcomer)).role).toBe('front_desk');
    expect((await signInAs(mapped, both)).role).toBe('owner');
    const [created] = await mapped.database.query<AuditRow>('SELECT * FROM audit_log WHERE target_id = $1', [
      String((await findStaffByEmail(mapped.database, 'desk@studio.test'))!.id),
    ]);
    expect(created).toMatchObject({ action: 'staff.create', after: { email: 'desk@studio.test', role: 'front_desk', via: 'oidc', role_claim: ['front'] } });
  });

  it('follows the identity provider at every sign-in', async () => {
    desk.groups = ['video-team'];
    expect((await signInAs(mapped, desk)).role).toBe('content');
    desk.groups = [];
    expect((await signInAs(mapped, desk)).role).toBe('front_desk');
    const changes = (await mapped.database.query<AuditRow>("SELECT * FROM audit_log WHERE action = 'staff.update' ORDER BY id")).filter(
      (entry) => (entry.after as { email?: string }).email === 'desk@studio.test',
    );
    expect(changes.map((entry) => [entry.before?.role, entry.after?.role, entry.after?.via])).toEqual([
      ['front_desk', 'content', 'oidc'],
      ['content', 'front_desk', 'oidc'],
    ]);
  });

  it('keeps the last active owner an owner when their group is gone, and says so in the audit log', async () => {
    await mapped.database.query("UPDATE staff_users SET role = 'manager' WHERE email = 'both@studio.test'");
    boss.groups = ['staff'];
    expect((await signInAs(mapped, boss)).role).toBe('owner');
    const [kept] = (await mapped.database.query<AuditRow>("SELECT * FROM audit_log WHERE action = 'staff.update'")).filter(
      (entry) => (entry.after as { not_changed_to?: string }).not_changed_to,
    );
    expect(kept).toMatchObject({ staff_email: 'boss@studio.test', after: { role: 'owner', not_changed_to: 'front_desk', via: 'oidc' } });
  });

  it('refuses a disabled account with a clear page and no session', async () => {
    await mapped.database.query("UPDATE staff_users SET disabled_at = $1 WHERE email = 'editor@studio.test'", [new Date()]);
    const { response, role } = await signInAs(mapped, editor);
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('The account editor@studio.test is disabled on this console. Ask an owner to enable it.');
    expect(role).toBeUndefined();
  });

  it('without OIDC_ROLE_CLAIM: a new account gets OIDC_DEFAULT_ROLE, an existing one keeps the role set on the staff screen', async () => {
    expect((await signInAs(unmapped, plain)).role).toBe('content');
    await unmapped.database.query("UPDATE staff_users SET role = 'manager' WHERE email = 'plain@studio.test'");
    expect((await signInAs(unmapped, plain)).role).toBe('manager');
  });
});
