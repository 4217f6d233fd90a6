import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/config';
import { createVimeoCatalogue } from '../../server/src/integrations/vimeo';

describe('Vimeo configuration', () => {
  it('uses the sandbox catalogue without VIMEO_ACCESS_TOKEN, with no page delay in tests', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.vimeo).toEqual({ kind: 'sandbox', pageDelayMs: 0 });
    expect(createVimeoCatalogue(config).source).toBe('sandbox');
    expect(loadConfig({}).vimeo).toEqual({ kind: 'sandbox', pageDelayMs: 400 });
    expect(loadConfig({ VIMEO_SANDBOX_PAGE_DELAY_MS: '0' }).vimeo).toEqual({ kind: 'sandbox', pageDelayMs: 0 });
  });

  it('uses the real API with a token: api.vimeo.com and the token owner by default', () => {
    const config = loadConfig({ VIMEO_ACCESS_TOKEN: 'abc123' });
    expect(config.vimeo).toEqual({ kind: 'vimeo', apiUrl: 'https://api.vimeo.com', token: 'abc123', userId: 'me' });
    expect(createVimeoCatalogue(config).source).toBe('vimeo');
    expect(loadConfig({ VIMEO_ACCESS_TOKEN: 'abc123', VIMEO_USER_ID: '4242' }).vimeo).toMatchObject({ userId: '4242' });
  });

  it.each([
    [{ VIMEO_API_URL: 'api.vimeo.com' }, 'VIMEO_API_URL', 'absolute URL'],
    [{ VIMEO_API_URL: 'http://vimeo-proxy.example' }, 'VIMEO_API_URL', 'must use https'],
    [{ VIMEO_USER_ID: 'me/../admin' }, 'VIMEO_USER_ID', 'Vimeo user id'],
    [{ VIMEO_SANDBOX_PAGE_DELAY_MS: 'slow' }, 'VIMEO_SANDBOX_PAGE_DELAY_MS', ''],
  ])('rejects %j naming %s', (env, variable, message) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as ConfigError).message).toContain(message);
  });

  it('allows plain http only to this machine (a local stand-in)', () => {
    expect(loadConfig({ VIMEO_ACCESS_TOKEN: 't', VIMEO_API_URL: 'http://127.0.0.1:4010' }).vimeo).toMatchObject({ apiUrl: 'http://127.0.0.1:4010' });
  });
});
