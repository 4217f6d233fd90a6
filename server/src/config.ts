import path from 'node:path';
import { z } from 'zod';
import { booleanString, csv, emptyAsUndefined, isTimeZone, trustProxy, prefix, wholeNumber, roleMap, roleName } from './configValues';
import type { Role } from '@contract/permissions';
import { ConfigError, serviceAccount } from './configServiceAccount';
import { dataSourcesEnv, outboundEnv } from './configServices';
import { MAX_OVERRIDE_DAYS, OVERRIDE_MAX_DAYS_DEFAULT, OVERRIDE_MAX_DAYS_LIMIT } from '@contract/clientRules';

/** scrypt's cost for new password hashes, N = 2^cost (staff/password.ts): always this outside tests. */
export const PASSWORD_HASH_COST_DEFAULT = 15;
/** …and under NODE_ENV=test, unless PASSWORD_HASH_COST says otherwise: thousands of test sign-ins would spend minutes in scrypt. */
export const PASSWORD_HASH_COST_TEST = 10;

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    SERVER_PREFIX: prefix.default(''),
    DATA_DIR: z.string().min(1).default('./data'),
    PGLITE_SHARED_BUFFERS: z
      .string()
      .regex(/^[1-9]\d{0,5}(kB|MB|GB)$/, "must be a size such as '512MB' (kB, MB or GB)")
      .default('512MB'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    STAFF_EMAIL: z.email('must be an e-mail address').optional(),
    STAFF_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
    PASSWORD_HASH_COST: wholeNumber('scrypt cost (N = 2^cost)', PASSWORD_HASH_COST_TEST, PASSWORD_HASH_COST_DEFAULT).optional(),
    REAUTH_MINUTES: wholeNumber('minutes', 1, 24 * 60).default(15),
    SEED_DEMO: booleanString.default(true),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: trustProxy.default(false),
    PUBLIC_URL: z.url('must be an absolute URL like https://console.example.com').optional(),
    PASSKEY_RP_ID: z
      .string()
      .trim()
      .toLowerCase()
      .regex(
        /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/,
        'must be a host name like example.com (no scheme, port or path)',
      )
      .optional(),
    CONSOLE_DIR: z.string().min(1).default('./dist'),
    OIDC_ISSUER_URL: z.url('must be an absolute URL').optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_ALLOWED_EMAILS: csv.default([]),
    OIDC_ALLOWED_DOMAINS: csv.default([]),
    OIDC_ROLE_CLAIM: z
      .string()
      .trim()
      .regex(/^[^\s]{1,200}$/, "must be the name of a claim, like 'groups' or 'realm_access.roles'")
      .optional(),
    OIDC_ROLE_MAP: roleMap.optional(),
    OIDC_DEFAULT_ROLE: roleName.default('front_desk'),
    OIDC_REQUIRE_MFA: booleanString.default(false),
    OIDC_EXTRA_SCOPES: z
      .string()
      .trim()
      .regex(/^[\x21\x23-\x2B\x2D-\x5B\x5D-\x7E]+( [\x21\x23-\x2B\x2D-\x5B\x5D-\x7E]+)*$/, "must be scope names separated by spaces, like 'groups'")
      .optional(),
    ...dataSourcesEnv,
    STUDIO_TIME_ZONE: z.string().trim().refine(isTimeZone, "must be an IANA time zone like 'Europe/London' or 'America/New_York'").default('UTC'),
    AUTOMATED_MESSAGES_INTERVAL_MINUTES: wholeNumber('minutes (0: no schedule)', 0, 24 * 60).default(5),
    AT_RISK_ACTIVE_DAYS: wholeNumber('days', 1, 365).default(60),
    AT_RISK_QUIET_DAYS: wholeNumber('days', 1, 365).default(14),
    JOB_RETENTION_DAYS: wholeNumber('days', 1, 3650).default(14),
    OVERRIDE_MAX_DAYS: wholeNumber('days', MAX_OVERRIDE_DAYS, OVERRIDE_MAX_DAYS_LIMIT).default(OVERRIDE_MAX_DAYS_DEFAULT),
    JOB_CONCURRENCY_DEFAULT: wholeNumber('workers', 1, 20).default(2),
    JOB_CONCURRENCY_SYNC: wholeNumber('workers', 1, 20).default(2),
    JOB_CONCURRENCY_MESSAGES: wholeNumber('workers', 1, 20).default(4),
    ...outboundEnv,
  })
  .superRefine((env, ctx) => {
    if ((env.STAFF_EMAIL === undefined) !== (env.STAFF_PASSWORD === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.STAFF_EMAIL === undefined ? 'STAFF_EMAIL' : 'STAFF_PASSWORD'],
        message: 'STAFF_EMAIL and STAFF_PASSWORD must be set together',
      });
    }
    const oidc = [env.OIDC_ISSUER_URL, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
    if (oidc.some((v) => v !== undefined) && oidc.some((v) => v === undefined)) {
      const missing = ['OIDC_ISSUER_URL', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'].filter((_, i) => oidc[i] === undefined);
      ctx.addIssue({ code: 'custom', path: [missing[0]], message: `is required when any OIDC_* is set (missing: ${missing.join(', ')})` });
    }
    const siteIds = env.MINDBODY_SITE_IDS ?? env.MINDBODY_SITE_ID;
    const mindbody = {
      MINDBODY_API_KEY: env.MINDBODY_API_KEY,
      MINDBODY_SITE_IDS: siteIds,
      MINDBODY_STAFF_USERNAME: env.MINDBODY_STAFF_USERNAME,
      MINDBODY_STAFF_PASSWORD: env.MINDBODY_STAFF_PASSWORD,
    };
    const mindbodyMissing = Object.entries(mindbody)
      .filter(([, v]) => v === undefined)
      .map(([k]) => k);
    if (mindbodyMissing.length > 0 && mindbodyMissing.length < 4) {
      ctx.addIssue({
        code: 'custom',
        path: [mindbodyMissing[0]!],
        message: `is required when any Mindbody credential is set (missing: ${mindbodyMissing.join(', ')}; MINDBODY_SITE_ID works for one site)`,
      });
    }
    if (env.PASSWORD_HASH_COST !== undefined && env.PASSWORD_HASH_COST < PASSWORD_HASH_COST_DEFAULT && env.NODE_ENV !== 'test') {
      ctx.addIssue({
        code: 'custom',
        path: ['PASSWORD_HASH_COST'],
        message: `must be ${PASSWORD_HASH_COST_DEFAULT} (a lower cost makes every password guess cheaper; it is for tests, NODE_ENV=test, only)`,
      });
    }
    if (env.PASSKEY_RP_ID) {
      const host = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).hostname : null;
      if (!host) {
        ctx.addIssue({
          code: 'custom',
          path: ['PASSKEY_RP_ID'],
          message: 'needs PUBLIC_URL (the passkeys are bound to the host it names or a parent domain of it)',
        });
      } else if (host !== env.PASSKEY_RP_ID && !host.endsWith(`.${env.PASSKEY_RP_ID}`)) {
        ctx.addIssue({ code: 'custom', path: ['PASSKEY_RP_ID'], message: `must be PUBLIC_URL's host (${host}) or a parent domain of it` });
      }
    }
    if (env.FCM_SERVICE_ACCOUNT_JSON && env.FCM_SERVICE_ACCOUNT_FILE) {
      ctx.addIssue({ code: 'custom', path: ['FCM_SERVICE_ACCOUNT_FILE'], message: 'cannot be set together with FCM_SERVICE_ACCOUNT_JSON (set one of them)' });
    }
    const algolia = { ALGOLIA_APP_ID: env.ALGOLIA_APP_ID, ALGOLIA_ADMIN_KEY: env.ALGOLIA_ADMIN_KEY, ALGOLIA_SEARCH_KEY: env.ALGOLIA_SEARCH_KEY };
    const algoliaMissing = Object.entries(algolia)
      .filter(([, v]) => v === undefined)
      .map(([k]) => k);
    if (algoliaMissing.length > 0 && algoliaMissing.length < 3) {
      ctx.addIssue({
        code: 'custom',
        path: [algoliaMissing[0]!],
        message: `is required when any ALGOLIA_* is set (missing: ${algoliaMissing.join(', ')}); the console needs the search-only key, the server the admin key`,
      });
    }
    if ((env.OIDC_ROLE_CLAIM === undefined) !== (env.OIDC_ROLE_MAP === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.OIDC_ROLE_CLAIM === undefined ? 'OIDC_ROLE_CLAIM' : 'OIDC_ROLE_MAP'],
        message: "is required when the other is set: OIDC_ROLE_CLAIM names the claim (like 'groups'), OIDC_ROLE_MAP maps its values to roles",
      });
    }
    if (oidc.every((v) => v !== undefined) && env.OIDC_ALLOWED_EMAILS.length === 0 && env.OIDC_ALLOWED_DOMAINS.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_ALLOWED_EMAILS'],
        message: 'set OIDC_ALLOWED_EMAILS or OIDC_ALLOWED_DOMAINS, or nobody could sign in',
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

/** Live Mindbody credentials; null runs the sandbox site instead. */
export interface MindbodyConfig {
  apiUrl: string;
  apiKey: string;
  siteIds: number[];
  staffUsername: string;
  staffPassword: string;
}

export interface Config extends Env {
  dataDir: string;
  /** scrypt's cost for new password hashes: PASSWORD_HASH_COST_DEFAULT, or PASSWORD_HASH_COST_TEST under NODE_ENV=test. */
  passwordHashCost: number;
  /** Where the Vimeo sync reads from: the real API with a token, else the sandbox catalogue. */
  vimeo: { kind: 'vimeo'; apiUrl: string; token: string; userId: string } | { kind: 'sandbox'; pageDelayMs: number };
  consoleDir: string;
  mindbody: MindbodyConfig | null;
  /** The zone a Mindbody site's offset-less date-times are in: MINDBODY_SITE_TIME_ZONES, else STUDIO_TIME_ZONE. */
  mindbodyTimeZoneOf: (siteId: number) => string;
  /** Live FCM HTTP v1 with a service account; null sends through the sandbox (recorded as delivered). */
  fcm: { apiUrl: string; serviceAccount: { project_id: string; client_email: string; private_key: string; token_uri: string } } | null;
  oidc: {
    issuerUrl: string;
    clientId: string;
    clientSecret: string;
    allowedEmails: string[];
    allowedDomains: string[];
    /** Scopes beyond 'openid profile email' (OIDC_EXTRA_SCOPES); roleClaim null keeps the role set in the console; defaultRole when the claim maps to none. */
    extraScopes: string[];
    roleClaim: { name: string; map: [string, Role][] } | null;
    defaultRole: Role;
  } | null;
  /** Hosted Algolia: the server pushes changes there and the console searches it directly. */
  algolia: { appId: string; adminKey: string; searchKey: string; /** One write host instead of Algolia's four. */ apiUrl: string | null } | null;
}

export { ConfigError };

/** Validates every environment variable the server reads; the first bad one is named in the error. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).map(([key, value]) => [key, emptyAsUndefined(value)]));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(String(issue.path[0] ?? 'environment'), issue.message);
  }
  const value = parsed.data;
  const account = serviceAccount(value.FCM_SERVICE_ACCOUNT_JSON, value.FCM_SERVICE_ACCOUNT_FILE);
  return {
    ...value,
    fcm: account ? { apiUrl: value.FCM_API_URL.replace(/\/+$/, ''), serviceAccount: account.value } : null,
    dataDir: path.resolve(value.DATA_DIR),
    passwordHashCost: value.PASSWORD_HASH_COST ?? (value.NODE_ENV === 'test' ? PASSWORD_HASH_COST_TEST : PASSWORD_HASH_COST_DEFAULT),
    consoleDir: path.resolve(value.CONSOLE_DIR),
    mindbodyTimeZoneOf: (siteId) => value.MINDBODY_SITE_TIME_ZONES?.[siteId] ?? value.STUDIO_TIME_ZONE,
    mindbody:
      value.MINDBODY_API_KEY && value.MINDBODY_STAFF_USERNAME && value.MINDBODY_STAFF_PASSWORD && (value.MINDBODY_SITE_IDS ?? value.MINDBODY_SITE_ID)
        ? {
            apiUrl: value.MINDBODY_API_URL.replace(/\/+$/, ''),
            apiKey: value.MINDBODY_API_KEY,
            siteIds: value.MINDBODY_SITE_IDS ?? value.MINDBODY_SITE_ID!,
            staffUsername: value.MINDBODY_STAFF_USERNAME,
            staffPassword: value.MINDBODY_STAFF_PASSWORD,
          }
        : null,
    vimeo: value.VIMEO_ACCESS_TOKEN
      ? { kind: 'vimeo', apiUrl: value.VIMEO_API_URL, token: value.VIMEO_ACCESS_TOKEN, userId: value.VIMEO_USER_ID }
      : // A short pause per sandbox page lets staff watch the progress; tests need no pause.
        { kind: 'sandbox', pageDelayMs: value.VIMEO_SANDBOX_PAGE_DELAY_MS ?? (value.NODE_ENV === 'test' ? 0 : 400) },
    algolia:
      value.ALGOLIA_APP_ID && value.ALGOLIA_ADMIN_KEY && value.ALGOLIA_SEARCH_KEY
        ? { appId: value.ALGOLIA_APP_ID, adminKey: value.ALGOLIA_ADMIN_KEY, searchKey: value.ALGOLIA_SEARCH_KEY, apiUrl: value.ALGOLIA_API_URL ?? null }
        : null,
    oidc:
      value.OIDC_ISSUER_URL && value.OIDC_CLIENT_ID && value.OIDC_CLIENT_SECRET
        ? {
            issuerUrl: value.OIDC_ISSUER_URL,
            clientId: value.OIDC_CLIENT_ID,
            clientSecret: value.OIDC_CLIENT_SECRET,
            allowedEmails: value.OIDC_ALLOWED_EMAILS,
            allowedDomains: value.OIDC_ALLOWED_DOMAINS,
            extraScopes: value.OIDC_EXTRA_SCOPES?.split(' ') ?? [],
            roleClaim: value.OIDC_ROLE_CLAIM && value.OIDC_ROLE_MAP ? { name: value.OIDC_ROLE_CLAIM, map: value.OIDC_ROLE_MAP } : null,
            defaultRole: value.OIDC_DEFAULT_ROLE,
          }
        : null,
  };
}
