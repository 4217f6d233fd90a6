import type { Database } from '../src/db/client';
import { demoVideos, videoCategoryNames } from './catalogue';
import { demoMessages } from './messages';
import { DOMAINS, FIRST_NAMES, LAST_NAMES, STATUSES } from './people';
import { bookedClassesSql, demoPhoneSql } from './bookings';
import { inSeedTransaction, type SeedSession } from './session';
import { expirePurchaseAccess } from '../src/revenuecat/events';

export interface SeedOptions {
  clients: number;
  videos?: number;
  /** Average streamed videos per client (views are spread over the last 60 days). */
  viewsPerClient?: number;
  /** Average Mindbody class visits per linked client (spread over the last 90 days). */
  visitsPerClient?: number;
  /** The moment the data set is relative to ("New" clients, overrides, views). */
  now?: Date;
  log?: (line: string) => void;
  /** SERVER_PREFIX, for the URLs of the demo thumbnails the server serves. */
  urlPrefix?: string;
}

const sqlArray = (values: (string | null)[]) => `ARRAY[${values.map((v) => (v === null ? 'NULL' : `'${v.replace(/'/g, "''")}'`)).join(',')}]::text[]`;

/** Tables the generator fills in bulk; their plain (non-unique) indexes are built after the load. */
// search_words and search_prefixes are filled by the clients trigger (migration 0015) during the one INSERT.
const BULK_TABLES = ['clients', 'video_views', 'mindbody_visits', 'favorites', 'contracts', 'purchases', 'debug_records', 'search_words', 'search_prefixes'];

/**
 * Deterministic demo data: every value is a function of the row number, generated inside the
 * database (generate_series). Everything happens in one transaction on one connection, so a
 * failure leaves the database as it was: the plain indexes and foreign keys of the bulk tables are
 * dropped, the rows loaded, and both created again from their own definitions (one sorted build
 * and one validating join instead of an index insertion and a key lookup per row).
 */
export async function seedDemoData(database: Database, options: SeedOptions): Promise<void> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  // One moment for the whole data set: the rows are generated, ranked and their access computed as of it.
  const seededAt = options.now ?? new Date(started);
  await inSeedTransaction(database, async (session) => {
    await session.execScript("SET LOCAL maintenance_work_mem = '256MB';");
    const indexes = await session.query<{ name: string; definition: string }>(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
       WHERE t.relname = ANY($1) AND t.relnamespace = 'public'::regnamespace AND NOT i.indisunique AND NOT i.indisprimary
       ORDER BY c.relname`,
      [BULK_TABLES],
    );
    // Foreign keys are checked row by row while loading; added back, each is one join over the table.
    const foreignKeys = await session.query<{ name: string; table: string; definition: string }>(
      `SELECT k.conname AS name, t.relname AS table, pg_get_constraintdef(k.oid) AS definition
       FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
       WHERE k.contype = 'f' AND t.relname = ANY($1) AND t.relnamespace = 'public'::regnamespace
       ORDER BY t.relname, k.conname`,
      [BULK_TABLES],
    );
    await session.execScript(
      [...foreignKeys.map((key) => `ALTER TABLE "${key.table}" DROP CONSTRAINT "${key.name}";`), ...indexes.map((index) => `DROP INDEX "${index.name}";`)].join(
        '\n',
      ),
    );
    await fillTables(session, { ...options, now: seededAt }, log);
    const t = Date.now();
    await session.execScript(
      [
        ...indexes.map((index) => `${index.definition};`),
        ...foreignKeys.map((key) => `ALTER TABLE "${key.table}" ADD CONSTRAINT "${key.name}" ${key.definition};`),
      ].join('\n'),
    );
    log(`  ${indexes.length} indexes and ${foreignKeys.length} foreign keys (${((Date.now() - t) / 1000).toFixed(1)} s)`);
    // The at-risk list's ranks (migration 0059), once the contracts' index is back; else the first read would rank every client.
    const ranking = Date.now();
    await session.query('SELECT client_activity_rank($1::timestamptz)', [seededAt.toISOString()]);
    log(`  at-risk ranks (${((Date.now() - ranking) / 1000).toFixed(1)} s)`);
  });
  // The loaded purchases flagged their clients for the access-expiry job (migration 0031): run here.
  const refreshing = Date.now();
  const { refreshed } = await expirePurchaseAccess({ database, clock: { now: () => seededAt } });
  log(`  purchase access of ${refreshed} clients (${((Date.now() - refreshing) / 1000).toFixed(1)} s)`);
  const t = Date.now();
  // Every table: left unvacuumed, autovacuum goes through the loaded rows (throttled, for many minutes
  // at a million clients) after the first start, and each first read of a row writes its page back.
  await database.execScript('VACUUM (ANALYZE);');
  log(`  vacuum and analyze (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  log(`Seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function fillTables(database: SeedSession, options: SeedOptions, log: (line: string) => void) {
  const clientCount = Math.max(1, Math.floor(options.clients));
  const videoCount = Math.max(videoCategoryNames.length, options.videos ?? 150);
  const viewsPerClient = options.viewsPerClient ?? 15;
  const visitsPerClient = options.visitsPerClient ?? 4;
  const now = (options.now ?? new Date()).toISOString();
  const ts = `'${now}'::timestamptz`;
  const step = async (label: string, sqlText: string) => {
    const t = Date.now();
    await database.execScript(sqlText);
    log(`  ${label} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  };

  await step(
    'video categories',
    `INSERT INTO video_categories (name, sort_order) VALUES ${videoCategoryNames
      .map((name, i) => `('${name.replace(/'/g, "''")}', ${i + 1})`)
      .join(',')} ON CONFLICT (name) DO NOTHING;`,
  );

  const catalogue = demoVideos(videoCount, options.urlPrefix);
  for (let start = 0; start < catalogue.length; start += 1000) {
    const rows = catalogue.slice(start, start + 1000).map((v) => {
      const q = (s: string | null) => (s === null ? 'NULL' : `'${s.replace(/'/g, "''")}'`);
      return `(${q(v.vimeo_video_id)}, ${q(v.title)}, ${q(v.thumbnail_url)}, ${v.duration}, ${v.enabled}, ${v.access_level_id},
        (SELECT id FROM video_categories WHERE name = ${q(v.category)}), ${q(v.instructor)})`;
    });
    await database.execScript(
      `INSERT INTO videos (vimeo_video_id, title, thumbnail_url, duration, enabled, access_level_id, category_id, instructor)
       VALUES ${rows.join(',\n')} ON CONFLICT (vimeo_video_id) DO NOTHING;`,
    );
  }
  log(`  videos: ${catalogue.length}`);

  // h(n, salt) is a stable pseudo-random non-negative integer for row n.
  const h = (expr: string, salt: number) => `abs(hashint8((${expr})::bigint * 7919 + ${salt}))`;
  await step(
    `clients: ${clientCount}`,
    `WITH names AS (SELECT ${sqlArray(FIRST_NAMES)} AS f, ${sqlArray(LAST_NAMES)} AS l, ${sqlArray(DOMAINS)} AS d, ${sqlArray(STATUSES)} AS s),
     gen AS (
       SELECT g AS n,
              f[1 + ${h('g', 1)} % array_length(f, 1)] AS first_name,
              l[1 + ${h('g', 2)} % array_length(l, 1)] AS last_name,
              d[1 + ${h('g', 3)} % array_length(d, 1)] AS domain,
              s[1 + ${h('g', 4)} % array_length(s, 1)] AS status,
              ${h('g', 5)} % 100 AS mb_roll,
              ${h('g', 6)} % 100 AS level_roll,
              ${h('g', 7)} % 1000 AS login_roll,
              ${h('g', 8)} % 86400 AS seconds
       FROM generate_series(1, ${clientCount}) AS g, names
     )
     INSERT INTO clients (first_name, last_name, email_address, mb_client_id, mb_site_id, vod_access_level,
                          purchase_access_level, client_status, first_login, admin_updated_expiration,
                          admin_replaced_access_level, revenue_cat_user_id, created_at, updated_at, phone)
     SELECT first_name, last_name,
            lower(regexp_replace(first_name || '.' || last_name, '[^A-Za-z.]', '', 'g')) || n || '@' || domain,
            CASE WHEN mb_roll < 8 THEN NULL WHEN mb_roll < 12 THEN (n % 90 + 10)::text ELSE (100000 + n)::text END,
            CASE WHEN mb_roll < 8 THEN NULL WHEN n % 5 = 0 THEN 5739 ELSE -99 END,
            CASE WHEN n % 97 = 0 THEN 3 WHEN level_roll < 50 THEN 1 WHEN level_roll < 75 THEN 2 ELSE 3 END,
            CASE WHEN level_roll < 50 THEN NULL WHEN level_roll < 75 THEN 2 ELSE 3 END,
            status,
            CASE WHEN login_roll < 40 THEN NULL
                 WHEN login_roll < 120 THEN ${ts} - make_interval(days => (login_roll - 40) % 30, secs => seconds)
                 ELSE ${ts} - make_interval(days => 31 + login_roll, secs => seconds) END,
            CASE WHEN n % 97 = 0 THEN ${ts} + make_interval(days => 1 + n % 27) END,
            CASE WHEN n % 97 = 0 THEN CASE WHEN level_roll < 50 THEN 1 WHEN level_roll < 75 THEN 2 ELSE 3 END END,
            CASE WHEN level_roll >= 50 THEN 'rc_' || md5(n::text) END,
            ${ts} - make_interval(days => 31 + login_roll),
            ${ts} - make_interval(days => login_roll % 30), CASE WHEN mb_roll >= 8 THEN ${demoPhoneSql('n')} END
     FROM gen ORDER BY n;`,
  );

  await step(
    'override history',
    // Every override set on the clients above is in the history the subscriber trend counts (its start as the
    // migration assumes for older ones: 28 days before its end, at the latest now); some other clients had a
    // 1- to 14-day override the expiry job ended (a minute or so late) within the 12 weeks the trend shows.
    `WITH staff AS (SELECT ARRAY['manager@studio.example', 'frontdesk@studio.example', 'coach@studio.example']::text[] AS e)
     INSERT INTO access_override_history (client_id, level, replaced_level, starts_at, ends_at, ended_at, granted_by)
     SELECT c.id, c.vod_access_level, c.admin_replaced_access_level,
            least(c.admin_updated_expiration - interval '28 days', ${ts}), c.admin_updated_expiration, NULL, e[1 + c.id % 3]
     FROM clients c, staff WHERE c.admin_updated_expiration IS NOT NULL
     UNION ALL
     SELECT c.id, 2 + (c.id % 2)::int, c.vod_access_level, f.starts_at, f.ends_at,
            f.ends_at + make_interval(secs => ${h('c.id', 9)} % 120), e[1 + c.id % 3]
     FROM clients c CROSS JOIN staff
     CROSS JOIN LATERAL (SELECT ${ts} - make_interval(days => 15 + (c.id % 70)::int) AS starts_at,
                                ${ts} - make_interval(days => 15 + (c.id % 70)::int - 1 - (c.id % 14)::int) AS ends_at) AS f
     WHERE c.admin_updated_expiration IS NULL AND c.id % 89 = 0;`,
  );

  await step(
    'video views',
    `WITH v AS (SELECT array_agg(id ORDER BY id) AS ids FROM videos WHERE deleted_at IS NULL)
     INSERT INTO video_views (client_id, video_id, viewed_at)
     SELECT c.id, v.ids[1 + ${h('c.id * 131 + k', 11)} % array_length(v.ids, 1)],
            ${ts} - make_interval(secs => ${h('c.id * 131 + k', 12)} % (60 * 86400))
     FROM clients c CROSS JOIN v
     CROSS JOIN LATERAL generate_series(1, (${h('c.id', 13)} % ${viewsPerClient * 2 + 1})::int) AS k
     ORDER BY 3
     ON CONFLICT DO NOTHING;`,
  );

  await step(
    'class visits',
    // Linked clients' classes of the last 90 days (most signed in, some missed or late-cancelled) for the timeline,
    // the class filters and the at-risk list. Ids from 10^9: clear of the sandbox site's, which shares site -99.
    `WITH names AS (SELECT ${sqlArray(['Power Vinyasa', 'Barre Burn', 'Spin 45', 'Pilates Mat', 'HIIT Express', 'Yin Yoga'])} AS n)
     INSERT INTO mindbody_visits (client_id, mb_site_id, mb_visit_id, mb_client_id, class_id, class_name, location_id,
                                  start_at, end_at, attendance, signed_in, missed, late_cancelled, last_modified_at, imported_at)
     SELECT c.id, c.mb_site_id, 1000000000 + c.id * 100 + k, c.mb_client_id, 1 + ${h('c.id * 53 + k', 41)} % 6, n[1 + ${h('c.id * 53 + k', 41)} % 6], 1,
            t.start_at, t.start_at + interval '1 hour',
            CASE WHEN roll < 80 THEN 'signed_in' WHEN roll < 92 THEN 'missed' ELSE 'late_cancelled' END,
            roll < 80, roll >= 80 AND roll < 92, roll >= 92, t.start_at, ${ts}
     FROM clients c CROSS JOIN names
     CROSS JOIN LATERAL generate_series(1, (${h('c.id', 42)} % ${visitsPerClient * 2 + 1})::int) AS k
     CROSS JOIN LATERAL (SELECT date_trunc('hour', ${ts} - make_interval(secs => ${h('c.id * 53 + k', 43)} % (90 * 86400))) AS start_at,
                                ${h('c.id * 53 + k', 44)} % 100 AS roll) AS t
     WHERE c.mb_site_id IS NOT NULL
     ORDER BY t.start_at;`,
  );
  await step('booked classes', bookedClassesSql(h, ts));

  await step(
    'favorites',
    `WITH v AS (SELECT array_agg(id ORDER BY id) AS ids FROM videos WHERE deleted_at IS NULL AND enabled)
     INSERT INTO favorites (client_id, video_id, video_category_id, created_at)
     SELECT c.id, v.ids[1 + ${h('c.id * 17 + k', 21)} % array_length(v.ids, 1)], 30, ${ts} - make_interval(days => k)
     FROM clients c CROSS JOIN v CROSS JOIN LATERAL generate_series(1, (c.id % 5)::int) AS k
     WHERE c.id % 3 = 0
     ON CONFLICT DO NOTHING;`,
  );

  const AUTOPAY_MONTHS = [1, 2, 3, 4];
  const contractNames = sqlArray(['Unlimited Monthly', '10 Class Pack', 'Annual Membership', 'Intro Month', 'Founders Rate', 'Student Monthly']);
  await step(
    'contracts',
    // The four autopay dates are the same for every contract: computed once, not per row.
    `WITH schedule AS (SELECT ${AUTOPAY_MONTHS.map((m) => `to_char(date_trunc('month', ${ts}) + make_interval(months => ${m}), 'YYYY-MM-DD"T"HH24:MI:SS') AS d${m}`).join(', ')})
     INSERT INTO contracts (client_id, id, contract_id, site_id, agreement_date, autopay_status, contract_name,
                           start_date, end_date, termination_date, original_location_id, upcoming_autopay_events)
     SELECT c.id, c.id * 10 + k, 100 + ${h('c.id + k', 31)} % 6, c.mb_site_id,
            date_trunc('day', ${ts}) - make_interval(days => 30 + ${h('c.id + k', 32)} % 600),
            (ARRAY['Active', 'Active', 'Inactive', 'Suspended'])[1 + ${h('c.id + k', 33)} % 4],
            (${contractNames})[1 + ${h('c.id + k', 31)} % 6],
            date_trunc('day', ${ts}) - make_interval(days => 30 + ${h('c.id + k', 32)} % 600),
            date_trunc('day', ${ts}) + make_interval(days => 30 + ${h('c.id + k', 34)} % 365),
            CASE WHEN ${h('c.id + k', 35)} % 7 = 0 THEN date_trunc('day', ${ts}) - make_interval(days => ${h('c.id + k', 36)} % 20) END,
            1 + ${h('c.id', 37)} % 3,
            jsonb_build_array(${AUTOPAY_MONTHS.map(
              (m) => `jsonb_build_object('ClientContractId', c.id * 10 + k, 'ChargeAmount', x.amount, 'ScheduleDate', s.d${m}, 'PaymentMethod', 'CreditCard')`,
            ).join(', ')})
     FROM clients c CROSS JOIN LATERAL generate_series(1, (1 + c.id % 2)::int) AS k
     CROSS JOIN LATERAL (SELECT (ARRAY[89, 129, 59, 149, 99])[1 + ${h('c.id + k', 38)} % 5] AS amount) AS x
     CROSS JOIN schedule AS s
     WHERE c.mb_client_id IS NOT NULL AND length(c.mb_client_id) > 2 AND c.id % 4 <> 1;`,
  );

  await step(
    'purchases',
    `INSERT INTO purchases (client_id, revenue_cat_user_id, access_level_id, subscription_identifier, upsell_source,
                           purchased_at, expires_at, subscription_status)
     SELECT c.id, c.revenue_cat_user_id, lvl,
            CASE lvl WHEN 2 THEN 'vod_basic_monthly' ELSE 'vod_premium_monthly' END,
            (ARRAY['onboarding', 'paywall', 'class_upsell', 'email_campaign'])[1 + ${h('c.id + k', 41)} % 4],
            p, p + interval '1 month',
            CASE WHEN p + interval '1 month' > ${ts} THEN 'active' ELSE 'expired' END
     FROM clients c
     CROSS JOIN LATERAL generate_series(0, (c.id % 3)::int) AS k
     CROSS JOIN LATERAL (SELECT COALESCE(c.purchase_access_level, 2) AS lvl,
                                ${ts} - make_interval(days => 20 + k * 31 + (c.id % 9)::int) AS p) AS x
     WHERE c.revenue_cat_user_id IS NOT NULL;`,
  );

  await step(
    'debug records',
    `INSERT INTO debug_records (client_id, email, mb_client_id, app_access_level, firebase_token_new, firebase_token_current,
                                platform, platform_version, is_ipad, screen_width, screen_height, device_width, device_height,
                                ip, app_version, sent_at, device_constants, network_info)
     SELECT c.id, c.email_address, c.mb_client_id, al.name,
            'fcm_' || md5(c.id::text || 'new'), 'fcm_' || md5(c.id::text || 'cur'),
            CASE WHEN ios THEN 'ios' ELSE 'android' END,
            CASE WHEN ios THEN (ARRAY['17.5', '18.1', '18.3'])[1 + (c.id % 3)::int] ELSE (ARRAY['13', '14', '15'])[1 + (c.id % 3)::int] END,
            ios AND c.id % 10 = 0,
            CASE WHEN ios THEN 1179 ELSE 1080 END, CASE WHEN ios THEN 2556 ELSE 2400 END,
            CASE WHEN ios THEN 393 ELSE 412 END, CASE WHEN ios THEN 852 ELSE 915 END,
            '203.0.113.' || (c.id % 250 + 1), '3.' || (k + 4) || '.' || (c.id % 5),
            ${ts} - make_interval(days => k * 9 + (c.id % 7)::int, secs => (c.id % 3600)::int),
            jsonb_build_object('deviceName', CASE WHEN ios THEN 'iPhone' ELSE 'Pixel' END, 'appOwnership', 'standalone',
                               'expoVersion', '51.0.' || k, 'isDevice', true),
            jsonb_build_object('type', CASE WHEN k % 2 = 0 THEN 'wifi' ELSE 'cellular' END, 'isConnected', true,
                               'isInternetReachable', true)
     FROM clients c
     JOIN access_levels al ON al.sort_order = c.vod_access_level
     CROSS JOIN LATERAL (SELECT c.id % 2 = 0 AS ios) AS p
     CROSS JOIN LATERAL generate_series(0, (c.id % 3)::int) AS k
     WHERE c.id % 2 = 0 OR c.id % 5 = 0;`,
  );

  const messages = demoMessages();
  await database.execScript(
    `INSERT INTO push_messages (message_type, title, message, enabled) VALUES ${messages
      .map((m) => `(${m.message_type}, '${m.title.replace(/'/g, "''")}', '${m.message.replace(/'/g, "''")}', ${m.enabled})`)
      .join(',')};`,
  );
  log(`  push messages: ${messages.length}`);
}

export async function isEmpty(database: Database): Promise<boolean> {
  const [row] = await database.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM clients) OR EXISTS (SELECT 1 FROM videos) AS found');
  return !row!.found;
}
