import type { Database } from '../../server/src/db/client';

// Helpers of the attack tests (tests/server/fuzz.test.ts): encoding hostile values into URLs and
// telling whether a refused request left the database as it was.

/** Percent-encoding that also carries a lone surrogate (as the bytes WTF-8 gives it), which encodeURIComponent refuses. */
export function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...text]
      .map((ch) => {
        const code = ch.charCodeAt(0);
        if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff)
          return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
        return encodeURIComponent(ch);
      })
      .join('');
  }
}

/** What a query or path value of any JSON type looks like as text. */
export const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** Refused attempts at proving who one is: audited by design, so a refusal may add one. */
const AUDITED_REFUSALS = ['auth.sign_in_failed', 'auth.reauth_failed'];

/**
 * Counts and a checksum of every table: a rejected request must leave all of it as it was. Derived
 * tables (comment 'derived:', rebuilt from the others, e.g. the at-risk ranks a read brings up to
 * date) are left out: a write that reached them would show in the table they derive from. So is
 * client_looks: who looked at whose data is written by the reads themselves.
 */
export async function fingerprint(database: Database): Promise<string> {
  const tables = await database.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname NOT IN ('sessions', 'login_failures', 'jobs', 'job_schedules', 'client_looks')
       AND coalesce(obj_description(c.oid, 'pg_class'), '') NOT LIKE 'derived:%'
     ORDER BY 1`,
  );
  const parts = await Promise.all(
    tables.map(async ({ name }) => {
      const where = name === 'audit_log' ? ` WHERE action NOT IN (${AUDITED_REFUSALS.map((action) => `'${action}'`).join(', ')})` : '';
      const [row] = await database.query<{ sum: string }>(
        `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS sum FROM "${name}" t${where}`,
      );
      return `${name}:${row!.sum}`;
    }),
  );
  return parts.join(',');
}
