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
  ])('names the bad variable: %j', (env, variable) => {
    const error = attempt(env);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
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
});
