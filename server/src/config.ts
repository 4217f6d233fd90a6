import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const csv = z
  .string()
  .transform((value) => value.split(',').map((item) => item.trim().toLowerCase()).filter(Boolean));

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

const siteIdList = z
  .string()
  .regex(/^\s*-?\d{1,9}\s*(,\s*-?\d{1,9}\s*)*$/, 'must be a comma-separated list of Mindbody site ids like -99 or 5739,12345')
  .transform((value) => [...new Set(value.split(',').map((item) => Number(item.trim())))]);

/** 'basic:2,premium:3,*:2': RevenueCat entitlement id → access level (sort_order); '*' is any other entitlement. */
const entitlementLevels = z
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
function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value.length > 0;
  } catch {
    return false;
  }
}

const secretKey = (what: string) => z.string().min(16, `must be at least 16 characters (${what})`).max(512);

const prefix = z
  .string()
  .regex(/^(\/[A-Za-z0-9._~-]+)*$/, 'must be empty or a path like /admin (no trailing slash)');

const isLocalOrHttps = (value: string) => value.startsWith('https://') || /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:|\/|$)/.test(value);

const localOrHttps = (example: string, secret: string) =>
  z
    .url(`must be an absolute URL like ${example}`)
    .refine(isLocalOrHttps, `must use https (plain http only to this machine), or ${secret} would travel in clear text`);

const ServiceAccountJson = z.object({
  type: z.literal('service_account', { message: "type must be 'service_account' (a Google Cloud service-account key)" }).optional(),
  project_id: z.string({ message: 'project_id is missing' }).min(1, 'project_id is missing'),
  client_email: z.email({ message: 'client_email is missing or not an e-mail address' }),
  private_key: z.string({ message: 'private_key is missing' }).includes('PRIVATE KEY', { message: 'private_key is not a PEM private key' }),
  token_uri: z
    .url({ message: 'token_uri must be an absolute URL' })
    .refine(isLocalOrHttps, 'token_uri must use https (plain http only to this machine)')
    .default('https://oauth2.googleapis.com/token'),
});

/** The service-account key from FCM_SERVICE_ACCOUNT_JSON (inline) or FCM_SERVICE_ACCOUNT_FILE (a path). */
function serviceAccount(env: Env): { variable: string; value: z.infer<typeof ServiceAccountJson> } | null {
  const variable = env.FCM_SERVICE_ACCOUNT_JSON ? 'FCM_SERVICE_ACCOUNT_JSON' : env.FCM_SERVICE_ACCOUNT_FILE ? 'FCM_SERVICE_ACCOUNT_FILE' : null;
  if (!variable) return null;
  let text = env.FCM_SERVICE_ACCOUNT_JSON;
  if (!text) {
    try {
      text = fs.readFileSync(env.FCM_SERVICE_ACCOUNT_FILE!, 'utf8');
    } catch (error) {
      throw new ConfigError(variable, `names a file that cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(variable, 'is not JSON (expected the service-account key file Google Cloud downloads)');
  }
  const parsed = ServiceAccountJson.safeParse(json);
  if (!parsed.success) throw new ConfigError(variable, `is not a usable service-account key: ${parsed.error.issues[0]!.message}`);
  return { variable, value: parsed.data };
}

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    SERVER_PREFIX: prefix.default(''),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    STAFF_EMAIL: z.email('must be an e-mail address').optional(),
    STAFF_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
    SEED_DEMO: booleanString.default(true),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    PUBLIC_URL: z.url('must be an absolute URL like https://console.example.com').optional(),
    CONSOLE_DIR: z.string().min(1).default('./dist'),
    OIDC_ISSUER_URL: z.url('must be an absolute URL').optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_ALLOWED_EMAILS: csv.default([]),
    OIDC_ALLOWED_DOMAINS: csv.default([]),
    MINDBODY_API_URL: z
      .url('must be an absolute URL like https://api.mindbodyonline.com/public/v6')
      .refine(
        (value) => value.startsWith('https://') || /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:|\/|$)/.test(value),
        'must use https (plain http only to this machine), or the API key and staff password would travel in clear text',
      )
      .default('https://api.mindbodyonline.com/public/v6'),
    MINDBODY_API_KEY: z.string().min(1).optional(),
    MINDBODY_SITE_IDS: siteIdList.optional(),
    MINDBODY_SITE_ID: siteIdList.optional(),
    MINDBODY_STAFF_USERNAME: z.string().min(1).optional(),
    MINDBODY_STAFF_PASSWORD: z.string().min(1).optional(),
    MINDBODY_SYNC_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(7 * 24 * 60).default(60),
    MINDBODY_VISITS_DAYS: z.coerce.number().int().min(0).max(365).default(30),
    REVENUECAT_WEBHOOK_AUTH: secretKey('the Authorization header value set in RevenueCat').optional(),
    REVENUECAT_ENTITLEMENT_LEVELS: entitlementLevels.default(entitlementLevels.parse('basic:2,premium:3,*:2')),
    APP_API_KEY: secretKey('the key the mobile app sends in X-App-Key').optional(),
    APP_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
    VIMEO_ACCESS_TOKEN: z.string().trim().min(1).optional(),
    VIMEO_USER_ID: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, "must be 'me' or a Vimeo user id (letters, digits, _ and -)")
      .default('me'),
    VIMEO_API_URL: z
      .url('must be an absolute URL like https://api.vimeo.com')
      .refine(
        (value) => value.startsWith('https://') || /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:|\/|$)/.test(value),
        'must use https (plain http only to this machine), or the access token would travel in clear text',
      )
      .default('https://api.vimeo.com'),
    VIMEO_SANDBOX_PAGE_DELAY_MS: z.coerce.number().int().min(0).max(10_000).optional(),
    STUDIO_TIME_ZONE: z
      .string()
      .trim()
      .refine(isTimeZone, "must be an IANA time zone like 'Europe/London' or 'America/New_York'")
      .default('UTC'),
    AUTOMATED_MESSAGES_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(24 * 60).default(5),
    FCM_SERVICE_ACCOUNT_JSON: z.string().trim().min(1).optional(),
    FCM_SERVICE_ACCOUNT_FILE: z.string().trim().min(1).optional(),
    FCM_API_URL: localOrHttps('https://fcm.googleapis.com', 'the OAuth2 access token').default('https://fcm.googleapis.com'),
    SEARCH_APP_ID: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -')
      .default('STUDIO'),
    SEARCH_API_KEY: secretKey('the search-only key the console sends to /1/indexes/*/queries').optional(),
    SEARCH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
    ALGOLIA_APP_ID: z
      .string()
      .regex(/^[A-Za-z0-9]{1,64}$/, 'must be your Algolia application id (letters and digits)')
      .optional(),
    ALGOLIA_ADMIN_KEY: z.string().min(8, 'must be an Algolia admin API key').max(512).optional(),
    ALGOLIA_SEARCH_KEY: z.string().min(8, 'must be an Algolia search-only API key').max(512).optional(),
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
    const mindbody = { MINDBODY_API_KEY: env.MINDBODY_API_KEY, MINDBODY_SITE_IDS: siteIds, MINDBODY_STAFF_USERNAME: env.MINDBODY_STAFF_USERNAME, MINDBODY_STAFF_PASSWORD: env.MINDBODY_STAFF_PASSWORD };
    const mindbodyMissing = Object.entries(mindbody).filter(([, v]) => v === undefined).map(([k]) => k);
    if (mindbodyMissing.length > 0 && mindbodyMissing.length < 4) {
      ctx.addIssue({
        code: 'custom',
        path: [mindbodyMissing[0]!],
        message: `is required when any Mindbody credential is set (missing: ${mindbodyMissing.join(', ')}; MINDBODY_SITE_ID works for one site)`,
      });
    }
    if (env.FCM_SERVICE_ACCOUNT_JSON && env.FCM_SERVICE_ACCOUNT_FILE) {
      ctx.addIssue({ code: 'custom', path: ['FCM_SERVICE_ACCOUNT_FILE'], message: 'cannot be set together with FCM_SERVICE_ACCOUNT_JSON (set one of them)' });
    }
    const algolia = { ALGOLIA_APP_ID: env.ALGOLIA_APP_ID, ALGOLIA_ADMIN_KEY: env.ALGOLIA_ADMIN_KEY, ALGOLIA_SEARCH_KEY: env.ALGOLIA_SEARCH_KEY };
    const algoliaMissing = Object.entries(algolia).filter(([, v]) => v === undefined).map(([k]) => k);
    if (algoliaMissing.length > 0 && algoliaMissing.length < 3) {
      ctx.addIssue({
        code: 'custom',
        path: [algoliaMissing[0]!],
        message: `is required when any ALGOLIA_* is set (missing: ${algoliaMissing.join(', ')}); the console needs the search-only key, the server the admin key`,
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
  /** Where the Vimeo sync reads from: the real API with a token, else the sandbox catalogue. */
  vimeo: { kind: 'vimeo'; apiUrl: string; token: string; userId: string } | { kind: 'sandbox'; pageDelayMs: number };
  consoleDir: string;
  mindbody: MindbodyConfig | null;
  /** Live FCM HTTP v1 with a service account; null sends through the sandbox (recorded as delivered). */
  fcm: { apiUrl: string; serviceAccount: { project_id: string; client_email: string; private_key: string; token_uri: string } } | null;
  oidc: { issuerUrl: string; clientId: string; clientSecret: string; allowedEmails: string[]; allowedDomains: string[] } | null;
  /** Hosted Algolia: the server pushes changes there and the console searches it directly. */
  algolia: { appId: string; adminKey: string; searchKey: string } | null;
}

export class ConfigError extends Error {
  constructor(public readonly variable: string, detail: string) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.name = 'ConfigError';
  }
}

/** Validates every environment variable the server reads; the first bad one is named in the error. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).map(([key, value]) => [key, emptyAsUndefined(value)]));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(String(issue.path[0] ?? 'environment'), issue.message);
  }
  const value = parsed.data;
  const account = serviceAccount(value);
  return {
    ...value,
    fcm: account ? { apiUrl: value.FCM_API_URL.replace(/\/+$/, ''), serviceAccount: account.value } : null,
    dataDir: path.resolve(value.DATA_DIR),
    consoleDir: path.resolve(value.CONSOLE_DIR),
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
        ? { appId: value.ALGOLIA_APP_ID, adminKey: value.ALGOLIA_ADMIN_KEY, searchKey: value.ALGOLIA_SEARCH_KEY }
        : null,
    oidc:
      value.OIDC_ISSUER_URL && value.OIDC_CLIENT_ID && value.OIDC_CLIENT_SECRET
        ? {
            issuerUrl: value.OIDC_ISSUER_URL,
            clientId: value.OIDC_CLIENT_ID,
            clientSecret: value.OIDC_CLIENT_SECRET,
            allowedEmails: value.OIDC_ALLOWED_EMAILS,
            allowedDomains: value.OIDC_ALLOWED_DOMAINS,
          }
        : null,
  };
}
