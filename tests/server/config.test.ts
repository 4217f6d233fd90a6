import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/config';

const attempt = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
};

describe('configuration', () => {
  it('has working defaults for the embedded setup', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.SERVER_PREFIX).toBe('');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir).toMatch(/data$/);
    expect(config.SEED_DEMO).toBe(true);
    expect(config.oidc).toBeNull();
    expect(config.FIREBASE_PROJECT_ID).toBeUndefined();
    expect(config.APP_RATE_LIMIT_PER_ADDRESS_PER_MINUTE).toBe(120);
    expect(loadConfig({ FIREBASE_PROJECT_ID: ' studio-app-1234 ' }).FIREBASE_PROJECT_ID).toBe('studio-app-1234');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ SERVER_PREFIX: 'admin/' }, 'SERVER_PREFIX'],
    [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO'],
    [{ STAFF_EMAIL: 'not-an-email', STAFF_PASSWORD: 'long-enough' }, 'STAFF_EMAIL'],
    [{ STAFF_EMAIL: 'a@b.test' }, 'STAFF_PASSWORD'],
    [{ STAFF_EMAIL: 'a@b.test', STAFF_PASSWORD: 'short' }, 'STAFF_PASSWORD'],
    [{ SESSION_SECRET: 'too-short' }, 'SESSION_SECRET'],
    [{ OIDC_ISSUER_URL: 'https://id.example.com' }, 'OIDC_CLIENT_ID'],
    [{ OIDC_ISSUER_URL: 'https://id.example.com', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' }, 'OIDC_ALLOWED_EMAILS'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '0' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1, proxy.example' }, 'TRUST_PROXY'],
    [{ FIREBASE_PROJECT_ID: 'My Project' }, 'FIREBASE_PROJECT_ID'],
    [{ FIREBASE_PROJECT_ID: 'https://securetoken.google.com/studio-app' }, 'FIREBASE_PROJECT_ID'],
    [{ APP_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '0' }, 'APP_RATE_LIMIT_PER_ADDRESS_PER_MINUTE'],
    [{ ALGOLIA_API_URL: 'http://algolia.example.com' }, 'ALGOLIA_API_URL'],
    [{ OIDC_ROLE_CLAIM: 'groups' }, 'OIDC_ROLE_MAP'],
    [{ OIDC_ROLE_MAP: 'admins:owner' }, 'OIDC_ROLE_CLAIM'],
    [{ OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'admins:admin' }, 'OIDC_ROLE_MAP'],
    [{ OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'admins' }, 'OIDC_ROLE_MAP'],
    [{ OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'admins:owner,admins:manager' }, 'OIDC_ROLE_MAP'],
    [{ OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: ',' }, 'OIDC_ROLE_MAP'],
    [{ OIDC_ROLE_CLAIM: 'my groups', OIDC_ROLE_MAP: 'admins:owner' }, 'OIDC_ROLE_CLAIM'],
    [{ OIDC_DEFAULT_ROLE: 'frontdesk' }, 'OIDC_DEFAULT_ROLE'],
    [{ OIDC_EXTRA_SCOPES: 'groups,roles' }, 'OIDC_EXTRA_SCOPES'],
    [{ PGLITE_SHARED_BUFFERS: 'lots' }, 'PGLITE_SHARED_BUFFERS'],
    [{ PGLITE_SHARED_BUFFERS: '512' }, 'PGLITE_SHARED_BUFFERS'],
    [{ PGLITE_SHARED_BUFFERS: '512MB; DROP' }, 'PGLITE_SHARED_BUFFERS'],
  ])('names the bad variable: %j', (env, variable) => {
    const error = attempt(env);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
  });

  it("hashes passwords at scrypt's full cost outside tests, and lower only under NODE_ENV=test", () => {
    expect(loadConfig({}).passwordHashCost).toBe(15);
    expect(loadConfig({ NODE_ENV: 'production', PASSWORD_HASH_COST: '15' }).passwordHashCost).toBe(15);
    expect(loadConfig({ NODE_ENV: 'test' }).passwordHashCost).toBe(10);
    expect(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_COST: '15' }).passwordHashCost).toBe(15);
    expect(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_COST: '12' }).passwordHashCost).toBe(12);
    for (const env of [{ PASSWORD_HASH_COST: '10' }, { NODE_ENV: 'development', PASSWORD_HASH_COST: '14' }] as Record<string, string>[]) {
      const error = attempt(env);
      expect(error.variable).toBe('PASSWORD_HASH_COST');
      expect(error.message).toContain('for tests, NODE_ENV=test, only');
    }
    for (const value of ['9', '16', '12.5', 'cheap']) expect(attempt({ NODE_ENV: 'test', PASSWORD_HASH_COST: value }).variable).toBe('PASSWORD_HASH_COST');
  });

  it('says what is wrong with OIDC_ROLE_MAP', () => {
    expect(attempt({ OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'admins:admin' }).message).toBe(
      "Invalid configuration: OIDC_ROLE_MAP maps 'admins' to 'admin', which is not a role (owner, manager, front_desk, content)",
    );
  });

  it('reads the role claim, its map in order (a value may hold colons) and the default role', () => {
    const oidc = { OIDC_ISSUER_URL: 'https://id.example.com', OIDC_CLIENT_ID: 'console', OIDC_CLIENT_SECRET: 'secret', OIDC_ALLOWED_DOMAINS: 'studio.test' };
    expect(loadConfig(oidc).oidc).toMatchObject({ roleClaim: null, defaultRole: 'front_desk', extraScopes: [] });
    const config = loadConfig({
      ...oidc,
      OIDC_ROLE_CLAIM: 'realm_access.roles',
      OIDC_ROLE_MAP: ' studio-admins:owner , urn:studio:front : front_desk ',
      OIDC_DEFAULT_ROLE: 'content',
      OIDC_EXTRA_SCOPES: 'groups roles',
    });
    expect(config.oidc).toMatchObject({
      roleClaim: {
        name: 'realm_access.roles',
        map: [
          ['studio-admins', 'owner'],
          ['urn:studio:front', 'front_desk'],
        ],
      },
      defaultRole: 'content',
      extraScopes: ['groups', 'roles'],
    });
  });

  it('treats empty values as unset and parses lists', () => {
    const config = loadConfig({
      PORT: '',
      OIDC_ISSUER_URL: 'https://id.example.com',
      OIDC_CLIENT_ID: 'console',
      OIDC_CLIENT_SECRET: 'secret',
      OIDC_ALLOWED_DOMAINS: 'Studio.test, other.test',
    });
    expect(config.PORT).toBe(3000);
    expect(config.oidc?.allowedDomains).toEqual(['studio.test', 'other.test']);
  });

  it.each([
    ['false', false],
    ['true', true],
    ['2', 2],
    ['10.0.0.0/8, loopback, fd00::/8', ['10.0.0.0/8', 'loopback', 'fd00::/8']],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it('sends hosted Algolia writes to ALGOLIA_API_URL when set (a proxy or a local stand-in)', () => {
    const algolia = { ALGOLIA_APP_ID: 'APPID', ALGOLIA_ADMIN_KEY: 'admin-key-123', ALGOLIA_SEARCH_KEY: 'search-key-123' };
    expect(loadConfig(algolia).algolia?.apiUrl).toBeNull();
    expect(loadConfig({ ...algolia, ALGOLIA_API_URL: 'http://127.0.0.1:7700' }).algolia?.apiUrl).toBe('http://127.0.0.1:7700');
  });
});
