import { describe, expect, it } from 'vitest';
import { createConfig } from '../../src/providers/config';

describe('createConfig', () => {
  it('defaults to the same origin, no prefix and the /login page', () => {
    const config = createConfig({});
    expect(config.apiUrl('/api/v1/sync/all-vimeo-videos')).toBe('/api/v1/sync/all-vimeo-videos');
    expect(config.loginUrl()).toBe('/login');
    expect(config.logoutUrl()).toBe('/logout');
  });

  it('joins base URL, prefix and path with exactly one slash between them', () => {
    const config = createConfig({ VITE_API_BASE_URL: 'https://api.test//', VITE_SERVER_PREFIX: 'studio/' });
    expect(config.apiUrl('api/stats/v1')).toBe('https://api.test/studio/api/stats/v1');
    expect(config.loginUrl()).toBe('https://api.test/studio/login');
    expect(config.logoutUrl()).toBe('https://api.test/studio/logout');
  });

  it('reads the search settings', () => {
    const config = createConfig({
      VITE_ALGOLIA_APP_ID: 'APP',
      VITE_ALGOLIA_SEARCH_KEY: 'key',
      VITE_ALGOLIA_HOST: 'search.studio.test',
    });
    expect(config.algolia).toEqual({ appId: 'APP', searchKey: 'key', host: 'search.studio.test' });
  });
});
