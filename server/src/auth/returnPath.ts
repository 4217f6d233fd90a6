/**
 * Where a browser goes back to after signing in: the console page it was on when it was sent to
 * /login. Only a path on this server is ever given back; anything that a browser could read as
 * another site (an open redirect: '//evil.com', '/\evil.com', 'https://evil.com', their encoded and
 * dot-segment spellings) is dropped, and the browser lands on the console's home instead.
 */

export const MAX_RETURN_PATH_LENGTH = 2048;

const BASE = 'http://console.invalid';
// Browsers read '\' as '/' and drop tabs and newlines from URLs, so a path holding them may not be what it seems.
const UNSAFE_CHARACTERS = /[\\\u0000-\u0020\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff]/;
// The sign-in pages themselves and the API are never somewhere to come back to.
const NOT_A_PAGE = /^\/(?:login|logout|callback)(?:[/?#]|$)|^\/(?:api|1)(?:\/|$)/i;

export function safeReturnPath(raw: unknown, pathPrefix = ''): string | null {
  if (typeof raw !== 'string' || raw === '' || raw.length > MAX_RETURN_PATH_LENGTH) return null;
  if (!raw.startsWith('/') || raw.startsWith('//') || UNSAFE_CHARACTERS.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  // Dot segments ('/.//evil.com') normalise to '//'; encoded slashes might be decoded by a proxy.
  if (path.startsWith('//') || decoded.startsWith('//') || UNSAFE_CHARACTERS.test(decoded)) return null;
  if (pathPrefix && decoded !== pathPrefix && !decoded.startsWith(`${pathPrefix}/`)) return null;
  if (NOT_A_PAGE.test(decoded.slice(pathPrefix.length) || '/')) return null;
  return path;
}
