import type { Database } from '../../server/src/db/client';
import { insertVideo } from './clientFixtures';

/** Activity and devices for the segment, at-risk and broadcast tests. */

let visitId = 1;
/** A Mindbody visit of the client at `at`; signed in unless said otherwise. */
export async function addVisit(database: Database, clientId: number, at: Date, signedIn = true) {
  await database.query(
    `INSERT INTO mindbody_visits (client_id, mb_site_id, mb_visit_id, class_name, start_at, end_at, attendance, signed_in, missed, imported_at)
     VALUES ($1, -99, $2, 'Flow', $3, $3::timestamptz + interval '1 hour', $4, $5, $6, $3)`,
    [clientId, visitId++, at.toISOString(), signedIn ? 'signed_in' : 'missed', signedIn, !signedIn],
  );
}

let videoId: number | null = null;
/** A stream (video view) of the client at `at`. */
export async function addView(database: Database, clientId: number, at: Date) {
  videoId ??= await insertVideo(database, { title: 'Reach test video', vimeo_video_id: '990001' });
  await database.query('INSERT INTO video_views (client_id, video_id, viewed_at) VALUES ($1, $2, $3)', [clientId, videoId, at.toISOString()]);
}

/** A device record of the client with this token (a placeholder such as 'null' counts as none). */
export async function addDevice(database: Database, clientId: number, token: string, usedForPush = true) {
  await database.query(
    `INSERT INTO debug_records (client_id, email, platform, firebase_token_new, used_for_push, created_at) VALUES ($1, 'x@studio.test', 'ios', $2, $3, now())`,
    [clientId, token, usedForPush],
  );
}

/** Resets the module's ids for a fresh database (each describe.each block opens one). */
export function resetActivityFixtures() {
  videoId = null;
}
