import type { Database } from '../../server/src/db/client';
import { recordAudit } from '../../server/src/audit/record';
import { insertClient, insertVideo } from './clientFixtures';

export const PERSON = {
  first_name: 'Zelda',
  last_name: 'Quartermaine',
  email_address: 'Zelda.Q@example.test',
  mb_client_id: '700001',
  mb_site_id: -99,
  unique_id: 800001,
  revenue_cat_user_id: 'rc-zelda-1',
};

/** Empties what the data-rights tests write, so each starts from the same person, never erased. */
export async function resetClientData(database: Database) {
  await database.execScript(
    'DELETE FROM erasure_tombstones; DELETE FROM purchases; DELETE FROM revenuecat_events; DELETE FROM debug_records; DELETE FROM clients; DELETE FROM jobs; DELETE FROM broadcasts; DELETE FROM bulk_actions; DELETE FROM audit_log; DELETE FROM dead_push_tokens;',
  );
}

/** One client with rows in every section of the export, and the video they streamed. */
export async function clientInEverySection(database: Database, now: Date): Promise<{ clientId: number; videoId: number }> {
  const clientId = await insertClient(database, {
    ...PERSON,
    vod_access_level: 1,
    client_status: 'Active',
    first_login: new Date(now.getTime() - 86_400_000 * 90),
  });
  await database.query('UPDATE clients SET mb_unique_id = $2, revenue_cat_user_id = $3 WHERE id = $1', [
    clientId,
    PERSON.unique_id,
    PERSON.revenue_cat_user_id,
  ]);
  const videoId = await insertVideo(database, { title: 'Zelda-free yoga', category: 'Yoga' });
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000).toISOString();
  await database.query(
    `INSERT INTO access_override_history (client_id, level, replaced_level, starts_at, ends_at, granted_by, reason) VALUES ($1, 3, 1, $2, $3, 'coach@studio.test', 'Zelda asked for a trial')`,
    [clientId, at(20), at(10)],
  );
  await database.query(
    `INSERT INTO purchases (client_id, revenue_cat_user_id, access_level_id, subscription_identifier, purchased_at, expires_at, subscription_status, rc_transaction_id)
     VALUES ($1, $2, 2, 'basic_monthly', $3, $4, 'active', 'txn-zelda-1')`,
    [clientId, PERSON.revenue_cat_user_id, at(5), new Date(now.getTime() + 25 * 86_400_000).toISOString()],
  );
  await database.query(
    `INSERT INTO revenuecat_events (event_id, type, app_user_id, original_app_user_id, aliases, email, environment, event_at, body, received_at, state, client_id, attempts)
     VALUES ('evt-zelda-1', 'INITIAL_PURCHASE', $2, $2, $3, $4, 'PRODUCTION', $5, $6, $5, 'processed', $1, 1)`,
    [
      clientId,
      PERSON.revenue_cat_user_id,
      JSON.stringify([PERSON.revenue_cat_user_id]),
      PERSON.email_address,
      at(5),
      JSON.stringify({ event: { app_user_id: PERSON.revenue_cat_user_id } }),
    ],
  );
  await database.query(`INSERT INTO contracts (client_id, id, contract_name, start_date) VALUES ($1, 91, 'Unlimited Monthly', $2)`, [clientId, at(60)]);
  await database.query(
    `INSERT INTO mindbody_visits (client_id, mb_site_id, mb_visit_id, mb_client_id, class_name, start_at, attendance, signed_in, missed, late_cancelled, make_up, web_signup, imported_at)
     VALUES ($1, -99, 5001, $2, 'Vinyasa Flow', $3, 'signed_in', true, false, false, false, false, $3)`,
    [clientId, PERSON.mb_client_id, at(3)],
  );
  await database.query('INSERT INTO video_views (client_id, video_id, viewed_at) VALUES ($1, $2, $3), ($1, $2, $4)', [clientId, videoId, at(2), at(4)]);
  await database.query('INSERT INTO favorites (client_id, video_id, video_category_id) VALUES ($1, $2, 1)', [clientId, videoId]);
  await database.query(
    `INSERT INTO debug_records (client_id, email, mb_client_id, firebase_token_new, firebase_token_current, platform, app_version, created_at)
     VALUES ($1, $2, $3, 'fcm-token-zelda-NEW-abcdef123456', 'fcm-token-zelda-CUR-654321fedcba', 'ios', '3.2.1', $4)`,
    [clientId, PERSON.email_address, PERSON.mb_client_id, at(1)],
  );
  await database.query(
    `INSERT INTO pushes (client_id, sent_by, source, title, body, status, results) VALUES ($1, 'coach@studio.test', 'console', 'Hi Zelda', 'See you in class, Zelda', 'sent', $2)`,
    [clientId, JSON.stringify([{ token: 'fcm-token-zelda-CUR-654321fedcba', outcome: 'sent' }])],
  );
  await database.query(
    `INSERT INTO automated_pushes (message_type, client_id, event_key, context, status, planned_for, due_at, deferred, title, body, attempts, local_day, created_at)
     VALUES (1, $1, 'hf:1', '{"first_name":"Zelda"}', 'sent', $2, $2, false, 'High five, Zelda', 'Ten classes!', 1, $3, $2)`,
    [clientId, at(6), at(6).slice(0, 10)],
  );
  await database.query('INSERT INTO automated_push_days (client_id, local_day, sent) VALUES ($1, $2, 1)', [clientId, at(6).slice(0, 10)]);
  const [broadcast] = await database.query<{ id: number }>(
    `INSERT INTO broadcasts (title, body, status, recipients) VALUES ('November news', 'New classes', 'sent', 1) RETURNING id`,
  );
  await database.query(`INSERT INTO broadcast_recipients (broadcast_id, client_id, status) VALUES ($1, $2, 'sent')`, [broadcast!.id, clientId]);
  await database.query(`INSERT INTO message_outcomes (broadcast_id, client_id, goal, window_days, sent_at) VALUES ($1, $2, 'any', 7, $3)`, [
    broadcast!.id,
    clientId,
    at(8),
  ]);
  const [bulk] = await database.query<{ id: number }>(
    `INSERT INTO bulk_actions (kind, params, status, total) VALUES ('override', '{}', 'done', 1) RETURNING id`,
  );
  await database.query(`INSERT INTO bulk_action_targets (bulk_action_id, client_id, status) VALUES ($1, $2, 'done')`, [bulk!.id, clientId]);
  await database.query(
    `INSERT INTO client_notes (client_id, body, author_email, created_at, updated_at) VALUES ($1, 'Zelda prefers mornings', 'coach@studio.test', $2, $2)`,
    [clientId, at(7)],
  );
  await database.query(`INSERT INTO client_tags (client_id, tag) VALUES ($1, 'early bird')`, [clientId]);
  await database.query(
    `INSERT INTO client_contacts (client_id, kind, note, staff_email, created_at) VALUES ($1, 'called', 'Zelda will be back after her knee heals', 'coach@studio.test', $2)`,
    [clientId, at(3)],
  );
  await database.query(`INSERT INTO data_requests (kind, client_id, received_at, due_at, note) VALUES ('access', $1, $2, $3, 'asked by e-mail')`, [
    clientId,
    at(2),
    new Date(now.getTime() + 28 * 86_400_000).toISOString(),
  ]);
  await database.query(
    `INSERT INTO client_looks (staff_user_id, client_id, hour, staff_email, kind, first_at) VALUES (1, $1, $2, 'coach@studio.test', 'page', $2)`,
    [clientId, at(1)],
  );
  await recordAudit(database, {
    staff: 'coach@studio.test',
    action: 'client.note_add',
    target_type: 'client',
    target_id: clientId,
    client_id: clientId,
    after: { body: 'Zelda prefers mornings', email: PERSON.email_address, name: 'Zelda Quartermaine' },
  });
  return { clientId, videoId };
}
