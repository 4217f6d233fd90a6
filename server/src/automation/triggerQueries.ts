import type { AutomationTypeSettings } from '@contract/automation';
import { lastWeekly } from './rules';
import { localDay } from '../lib/localTime';

/**
 * Each trigger as SQL selecting (client_id, event_key, planned_for, context) for the events whose
 * moment falls in (from, to]. The same text serves planning (INSERT ... ON CONFLICT DO NOTHING) and
 * the console's preview (count + sample), so both always agree.
 */
export interface Candidates {
  sql: string;
  params: unknown[];
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const iso = (date: Date) => date.toISOString();

export function candidateQuery(messageType: number, settings: AutomationTypeSettings, window: { from: Date; to: Date }, timeZone: string): Candidates | null {
  const { from, to } = window;
  switch (messageType) {
    case 1: {
      // High Five: a signed-in class, delay_minutes after it ended.
      const delay = settings.delay_minutes * MINUTE;
      return {
        sql: `SELECT v.client_id, 'visit:' || v.id AS event_key, v.end_at + make_interval(mins => $3::int) AS planned_for,
                     jsonb_build_object('class_name', v.class_name, 'class_count',
                       (SELECT count(*) FROM mindbody_visits w WHERE w.client_id = v.client_id AND w.signed_in AND w.start_at <= v.start_at)) AS context
              FROM mindbody_visits v
              WHERE v.signed_in AND v.end_at > $1 AND v.end_at <= $2`,
        params: [iso(new Date(from.getTime() - delay)), iso(new Date(to.getTime() - delay)), settings.delay_minutes],
      };
    }
    case 2:
      // Missed Class: a no-show, the next studio-local morning at send_time.
      return {
        sql: `SELECT * FROM (
                SELECT v.client_id, 'visit:' || v.id AS event_key,
                       ((((COALESCE(v.end_at, v.start_at) AT TIME ZONE $3)::date + 1) + $4::time) AT TIME ZONE $3) AS planned_for,
                       jsonb_build_object('class_name', v.class_name) AS context
                FROM mindbody_visits v
                WHERE v.missed AND COALESCE(v.end_at, v.start_at) > $1::timestamptz - interval '2 days' AND COALESCE(v.end_at, v.start_at) <= $2
              ) c WHERE c.planned_for > $1 AND c.planned_for <= $2`,
        params: [iso(from), iso(to), timeZone, settings.send_time],
      };
    case 5: {
      // Cancelled Class: a late cancellation, delay_minutes after it was made (Mindbody's last change of the visit).
      const delay = settings.delay_minutes * MINUTE;
      return {
        sql: `SELECT v.client_id, 'visit:' || v.id AS event_key,
                     COALESCE(v.last_modified_at, v.imported_at) + make_interval(mins => $3::int) AS planned_for,
                     jsonb_build_object('class_name', v.class_name) AS context
              FROM mindbody_visits v
              WHERE v.late_cancelled AND COALESCE(v.last_modified_at, v.imported_at) > $1 AND COALESCE(v.last_modified_at, v.imported_at) <= $2`,
        params: [iso(new Date(from.getTime() - delay)), iso(new Date(to.getTime() - delay)), settings.delay_minutes],
      };
    }
    case 3:
    case 4: {
      const moment = lastWeekly(to, settings.weekday, settings.send_time, timeZone);
      if (moment.getTime() <= from.getTime()) return null;
      const key = `week:${localDay(moment, timeZone)}`;
      if (messageType === 4) {
        // Monday Morning: every client with the app (a debug record from it).
        return {
          sql: `SELECT DISTINCT d.client_id, $1::text AS event_key, $2::timestamptz AS planned_for, '{}'::jsonb AS context
                FROM debug_records d WHERE d.client_id IS NOT NULL AND d.used_for_push`,
          params: [key, iso(moment)],
        };
      }
      // #notetoself: clients with a class or a stream in the last active_days days.
      return {
        sql: `SELECT a.client_id, $1::text AS event_key, $2::timestamptz AS planned_for, '{}'::jsonb AS context
              FROM (SELECT client_id FROM video_views WHERE viewed_at > $3 AND viewed_at <= $2
                    UNION SELECT client_id FROM mindbody_visits WHERE signed_in AND start_at > $3 AND start_at <= $2) a`,
        params: [key, iso(moment), iso(new Date(moment.getTime() - settings.active_days * DAY))],
      };
    }
    case 6: {
      // Extended Absense: the moment a client's last class or stream becomes absence_days old, once per absence.
      // Only activity of the window itself is read; each client found is kept when nothing came after it.
      const span = settings.absence_days * DAY;
      return {
        sql: `SELECT l.client_id, 'absence:' || to_char(l.last_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS event_key,
                     l.last_at + make_interval(days => $3::int) AS planned_for,
                     jsonb_build_object('days_absent', $3::int) AS context
              FROM (SELECT client_id, max(at) AS last_at FROM (
                      SELECT client_id, viewed_at AS at FROM video_views WHERE viewed_at > $1 AND viewed_at <= $2
                      UNION ALL SELECT client_id, start_at FROM mindbody_visits WHERE signed_in AND start_at > $1 AND start_at <= $2) a
                    GROUP BY client_id) l
              WHERE NOT EXISTS (SELECT 1 FROM video_views v WHERE v.client_id = l.client_id AND v.viewed_at > l.last_at)
                AND NOT EXISTS (SELECT 1 FROM mindbody_visits m WHERE m.client_id = l.client_id AND m.signed_in AND m.start_at > l.last_at)`,
        params: [iso(new Date(from.getTime() - span)), iso(new Date(to.getTime() - span)), settings.absence_days],
      };
    }
    default:
      return null;
  }
}
