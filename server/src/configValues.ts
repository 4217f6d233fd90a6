import net from 'node:net';
import { z } from 'zod';
import { isRole, ROLES, type Role } from '@contract/permissions';

/** How the configuration reads each kind of value; config.ts puts them together and names the variable. */
export const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

export const csv = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean),
);

/** A whole number in [min, max]; the message says which unit and range (the variable is named by config.ts). */
export const wholeNumber = (unit: string, min: number, max: number) =>
  z.coerce
    .number({ message: `must be a whole number of ${unit} from ${min} to ${max}` })
    .int(`must be a whole number of ${unit} from ${min} to ${max}`)
    .min(min, `must be a whole number of ${unit} from ${min} to ${max}`)
    .max(max, `must be a whole number of ${unit} from ${min} to ${max}`);

export const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

export const siteIdList = z
  .string()
  .regex(/^\s*-?\d{1,9}\s*(,\s*-?\d{1,9}\s*)*$/, 'must be a comma-separated list of Mindbody site ids like -99 or 5739,12345')
  .transform((value) => [...new Set(value.split(',').map((item) => Number(item.trim())))]);

/** '5739:America/New_York,12345:Europe/London': the zone each Mindbody site writes its local times in. */
export const siteTimeZones = z
  .string()
  .regex(
    /^\s*-?\d{1,9}\s*:\s*[^\s:,]+\s*(,\s*-?\d{1,9}\s*:\s*[^\s:,]+\s*)*$/,
    "must look like '5739:America/New_York,12345:Europe/London' (site id: IANA time zone)",
  )
  .transform((value, ctx) => {
    const zones: Record<number, string> = {};
    for (const pair of value.split(',')) {
      const [site, zone] = pair.split(':').map((part) => part.trim()) as [string, string];
      if (!isTimeZone(zone)) ctx.addIssue({ code: 'custom', message: `names '${zone}' for site ${site}, which is not an IANA time zone like 'Europe/London'` });
      zones[Number(site)] = zone;
    }
    return zones;
  });

/** 'basic:2,premium:3,*:2': RevenueCat entitlement id → access level (sort_order); '*' is any other entitlement. */
export const entitlementLevels = z
  .string()
  .regex(
    /^\s*[^\s:,]+\s*:\s*\d{1,2}\s*(,\s*[^\s:,]+\s*:\s*\d{1,2}\s*)*$/,
    "must look like 'basic:2,premium:3,*:2' (entitlement id: access level; '*' for any other entitlement)",
  )
  .transform((value) => {
    const levels: Record<string, number> = {};
    for (const pair of value.split(',')) {
      const [name, level] = pair.split(':').map((part) => part.trim());
      levels[name!.toLowerCase()] = Number(level);
    }
    return levels;
  });

/** Quiet hours, 'next morning' and weekly sends are studio-local; an unknown zone must fail at boot. */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value.length > 0;
  } catch {
    return false;
  }
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyAddress = (entry: string) => {
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || !address) return false;
  if (PROXY_NAMES.has(address) && bits === undefined) return true;
  const family = net.isIP(address);
  return family !== 0 && (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)));
};

/**
 * Which X-Forwarded-* to believe (Fastify's trustProxy). `true` believes the left-most
 * X-Forwarded-For entry, which a client can write itself unless the proxy replaces the header; a
 * hop count or the proxies' addresses take the entry the proxy itself added.
 */
export const trustProxy = z
  .string()
  .trim()
  .transform((value, context): boolean | number | string[] => {
    if (value === 'false') return false;
    if (value === 'true') return true;
    if (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 10) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    if (entries.every(isProxyAddress)) return entries;
    context.addIssue({
      code: 'custom',
      message: "must be false, true, a number of proxies in front (1-10), or the proxies' addresses (e.g. 10.0.0.0/8,loopback)",
    });
    return z.NEVER;
  });

export const secretKey = (what: string) => z.string().min(16, `must be at least 16 characters (${what})`).max(512);

export const prefix = z.string().regex(/^(\/[A-Za-z0-9._~-]+)*$/, 'must be empty or a path like /admin (no trailing slash)');

export const isLocalOrHttps = (value: string) => value.startsWith('https://') || /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:|\/|$)/.test(value);

export const localOrHttps = (example: string, secret: string) =>
  z
    .url(`must be an absolute URL like ${example}`)
    .refine(isLocalOrHttps, `must use https (plain http only to this machine), or ${secret} would travel in clear text`);

export const roleName = z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` });

/**
 * 'studio-admins:owner,front:front_desk': an identity provider's group (or role) value → our role,
 * in the order written; the first entry whose value a person has wins. A value may hold ':' (the
 * role is after the last one), not ','.
 */
export const roleMap = z.string().transform((value, ctx): [string, Role][] => {
  const entries: [string, Role][] = [];
  let bad = false;
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const colon = entry.lastIndexOf(':');
    const group = colon > 0 ? entry.slice(0, colon).trim() : '';
    const role = colon > 0 ? entry.slice(colon + 1).trim() : '';
    if (!group || !role || !isRole(role) || entries.some(([known]) => known === group)) bad = true;
    if (!group || !role) {
      ctx.addIssue({ code: 'custom', message: `has '${entry}', which is not 'group:role' (like 'studio-admins:owner,front:front_desk')` });
    } else if (!isRole(role)) {
      ctx.addIssue({ code: 'custom', message: `maps '${group}' to '${role}', which is not a role (${ROLES.join(', ')})` });
    } else if (entries.some(([known]) => known === group)) {
      ctx.addIssue({ code: 'custom', message: `names '${group}' twice` });
    } else {
      entries.push([group, role]);
    }
  }
  if (entries.length === 0 && !bad) ctx.addIssue({ code: 'custom', message: "must map at least one group, like 'studio-admins:owner'" });
  return entries;
});
