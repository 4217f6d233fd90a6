import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/search/sha256';
import { avatarUrl, moveSelection, showableHits } from '../../../src/search/searchRules';
import { searchHosts } from '../../../src/search/searchClient';
import { createConfig, readRuntimeConfig } from '../../../src/providers/config';
import { customerHitPath, videoHitPath } from '@contract/search';

describe('search rules', () => {
  it('computes SHA-256 like node:crypto, for empty, multi-block and non-ASCII texts', () => {
    for (const text of ['', 'abc', 'olivia.smith@gmail.com', 'x'.repeat(200), 'zoë.ñandú@example.com']) {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    }
  });

  it("keys the avatar by the trimmed, lower-cased e-mail, 60 px, Gravatar's fixed fallback", () => {
    expect(avatarUrl('  Ava@Example.COM ')).toBe(`https://www.gravatar.com/avatar/${sha256Hex('ava@example.com')}?s=60&d=mp`);
  });

  it('keeps only hits with a non-empty first name, last name and e-mail', () => {
    const hits = [
      { first_name: 'A', last_name: 'B', email_address: 'a@b.c' },
      { first_name: ' ', last_name: 'B', email_address: 'a@b.c' },
      { first_name: 'A', last_name: null, email_address: 'a@b.c' },
      { first_name: 'A', last_name: 'B' },
    ];
    expect(showableHits(hits)).toEqual([hits[0]]);
  });

  it('links customer hits to the client page with search=customers, video hits to the video route', () => {
    expect(customerHitPath({ related_pg_id: 7 })).toBe('/client/7?search=customers');
    expect(videoHitPath({ related_pg_id: 9 })).toBe('/videos/video/9');
  });

  it('moves the selection with the arrow keys, wrapping at both ends', () => {
    expect(moveSelection(-1, 3, 'ArrowDown')).toBe(0);
    expect(moveSelection(2, 3, 'ArrowDown')).toBe(0);
    expect(moveSelection(0, 3, 'ArrowUp')).toBe(2);
    expect(moveSelection(-1, 3, 'ArrowUp')).toBe(2);
    expect(moveSelection(-1, 0, 'ArrowDown')).toBe(-1);
  });

  it("sends searches to Algolia's hosts, our own origin ('self', with base and prefix) or a given host", () => {
    const with_ = (host: string, apiBaseUrl = '', serverPrefix = '') =>
      searchHosts({ algolia: { appId: 'A', searchKey: 'k', host }, apiBaseUrl, serverPrefix }, 'http://127.0.0.1:3000');
    expect(with_('')).toBeUndefined();
    expect(with_('self')).toEqual([{ url: '127.0.0.1', port: 3000, protocol: 'http', accept: 'readWrite' }]);
    expect(with_('self', '', '/studio')).toEqual([{ url: '127.0.0.1/studio', port: 3000, protocol: 'http', accept: 'readWrite' }]);
    expect(with_('self', 'https://api.studio.test')).toEqual([{ url: 'api.studio.test', protocol: 'https', accept: 'readWrite' }]);
    expect(with_('search.studio.test')).toEqual([{ url: 'search.studio.test', protocol: 'https', accept: 'readWrite' }]);
  });

  it('takes the search settings from the build when given, else from the page the server sent', () => {
    document.body.innerHTML =
      '<script type="application/json" id="studio-runtime-config">{"algolia":{"appId":"STUDIO","searchKey":"srch_1","host":"self"}}</script>';
    const runtime = readRuntimeConfig(document);
    expect(createConfig({}, runtime).algolia).toEqual({ appId: 'STUDIO', searchKey: 'srch_1', host: 'self' });
    expect(createConfig({ VITE_ALGOLIA_APP_ID: 'BUILT', VITE_ALGOLIA_SEARCH_KEY: 'k' }, runtime).algolia).toEqual({ appId: 'BUILT', searchKey: 'k', host: '' });
    document.body.innerHTML = '<script type="application/json" id="studio-runtime-config">{broken</script>';
    expect(createConfig({}, readRuntimeConfig(document)).algolia).toEqual({ appId: '', searchKey: '', host: '' });
    document.body.innerHTML = '';
  });
});
