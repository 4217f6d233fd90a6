import { z } from 'zod';
import { booleanString, entitlementLevels, localOrHttps, secretKey, siteIdList, siteTimeZones, wholeNumber } from './configValues';

/** The variables of the services that send the studio's data in: Mindbody, RevenueCat, the app, Firebase, Vimeo. */
export const dataSourcesEnv = {
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
  MINDBODY_SYNC_INTERVAL_MINUTES: wholeNumber('minutes (0: no schedule)', 0, 7 * 24 * 60).default(60),
  MINDBODY_VISITS_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  // 1,000 calls per API key per day are free (a third-party summary; docs/integrations.md); more are billed.
  MINDBODY_DAILY_CALL_LIMIT: z.coerce
    .number({ message: 'must be a whole number of calls per day' })
    .int()
    .min(10, 'must be at least 10 (a listing needs a token and a page)')
    .max(10_000_000)
    .default(1000),
  MINDBODY_SITE_TIME_ZONES: siteTimeZones.optional(),
  REVENUECAT_WEBHOOK_AUTH: secretKey('the Authorization header value set in RevenueCat').optional(),
  REVENUECAT_ENTITLEMENT_LEVELS: entitlementLevels.default(entitlementLevels.parse('basic:2,premium:3,*:2')),
  REVENUECAT_ACCEPT_SANDBOX: booleanString.default(false),
  // The REST API's secret key, for deleting an erased client's subscriber; without it a sandbox records the calls.
  REVENUECAT_SECRET_API_KEY: secretKey('the secret API key (sk_...) of the RevenueCat project').optional(),
  REVENUECAT_API_URL: localOrHttps('https://api.revenuecat.com/v1', 'the secret API key').default('https://api.revenuecat.com/v1'),
  APP_API_KEY: secretKey('the key the mobile app sends in X-App-Key').optional(),
  APP_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  APP_RATE_LIMIT_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  FIREBASE_PROJECT_ID: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, "must be your Firebase project id (6-30 lowercase letters, digits and '-', like studio-app-1234)")
    .optional(),
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
};

/** The variables of the services the console sends out through: FCM, the search endpoint, hosted Algolia. */
export const outboundEnv = {
  FCM_SERVICE_ACCOUNT_JSON: z.string().trim().min(1).optional(),
  FCM_SERVICE_ACCOUNT_FILE: z.string().trim().min(1).optional(),
  FCM_API_URL: localOrHttps('https://fcm.googleapis.com', 'the OAuth2 access token').default('https://fcm.googleapis.com'),
  // Broadcasts in live mode are paced to the project's FCM quota (600,000 a minute by default) and these many requests at once.
  FCM_QUOTA_PER_MINUTE: wholeNumber('messages a minute', 1, 60_000_000).default(600_000),
  FCM_MAX_IN_FLIGHT: wholeNumber('requests', 1, 2000).default(200),
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
  ALGOLIA_API_URL: localOrHttps('https://APPID.algolia.net', 'the admin key').optional(),
};
