import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from '@contract/audit';
import { i18nProvider } from '../../src/providers/i18nProvider';
import { changeLines, changeText } from '../../src/audit/auditFormat';
import { valueNamesFor } from '../../src/audit/useValueNames';

type Change = Pick<AuditEntry, 'before' | 'after'>;

/**
 * What the server records for each audit action (server/src: each recordAudit call's before and
 * after), one sample each. The Record type makes a new action in contract/audit.ts fail to compile
 * here until it has a sample, so every recorded action is read back in words.
 */
const SAMPLES: Record<AuditAction, Change> = {
  'auth.sign_in': { before: null, after: { method: 'password', user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36' } },
  'auth.sign_in_failed': { before: null, after: { reason: 'wrong password', limit_reached: true } },
  'auth.sign_out': { before: null, after: null },
  'auth.access_denied': { before: null, after: { permission: 'audit.read', role: 'front_desk' } },
  'staff.create': { before: null, after: { email: 'desk@studio.test', role: 'front_desk', via: 'oidc', role_claim: ['staff', 'desk'] } },
  'staff.update': { before: { email: 'desk@studio.test', role: 'front_desk' }, after: { email: 'desk@studio.test', role: 'manager', sessions_ended: 2 } },
  'staff.password_reset': { before: null, after: { email: 'desk@studio.test', sessions_ended: 1 } },
  'staff.password_change': { before: null, after: { sessions_ended: 3 } },
  'staff.remove': { before: { email: 'desk@studio.test', role: 'content', status: 'disabled' }, after: null },
  'session.end': { before: { ip: '203.0.113.9', user_agent: 'Mozilla/5.0 (iPhone) Safari/604.1', created_at: '2026-11-20T08:00:00.000Z' }, after: null },
  'message.create': { before: null, after: { id: 9, title: 'High five!', message: 'Ten classes, well done!', enabled: true, message_type: 1 } },
  'message.update': { before: { enabled: true }, after: { enabled: false } },
  'video.update': { before: { access_level_id: 1, title: 'Old' }, after: { access_level_id: 3, title: 'New' } },
  'video.delete': { before: { deleted_at: null }, after: { deleted_at: '2026-11-22T12:00:00.000Z' } },
  'vimeo_sync.start': { before: null, after: { source: 'sandbox', state: 'queued' } },
  'mindbody_sync.start': { before: null, after: { full: true } },
  'client.access_level': { before: { vod_access_level: 1 }, after: { vod_access_level: 3 } },
  'client.override_grant': {
    before: { vod_access_level: 1, admin_updated_expiration: null },
    after: { vod_access_level: 3, admin_updated_expiration: '2026-12-06T03:44:00.000Z', reason: 'Injury: free month' },
  },
  'client.override_end': {
    before: { vod_access_level: 3, admin_updated_expiration: '2026-12-06T03:44:00.000Z' },
    after: { vod_access_level: 1, admin_updated_expiration: null, ended: 'by_staff' },
  },
  'client.override_extend': {
    before: { admin_updated_expiration: '2026-12-06T03:44:00.000Z' },
    after: { admin_updated_expiration: '2026-12-20T03:44:00.000Z' },
  },
  'client.note_add': { before: null, after: { body: 'Knee injury' } },
  'client.note_update': { before: { body: 'Knee injury' }, after: { body: 'Knee injury, better now' } },
  'client.note_delete': { before: { body: 'Knee injury' }, after: null },
  'client.tags': { before: { tags: ['vip'] }, after: { tags: ['vip', 'early bird'] } },
  'client.push': { before: null, after: { title: 'Hi', body: 'See you Monday', updated: false, push_id: 5, reason: 'no device token' } },
  'client.favorite_add': { before: null, after: { vimeo_video_id: '9001', video_id: 12 } },
  'client.favorite_remove': { before: { vimeo_video_id: '9001', video_id: 12 }, after: null },
  'client.contracts_sync': { before: null, after: { outcome: 'failed', errors: ['Mindbody refused the call (401)'] } },
  'automated_message.update': { before: { enabled: false, send_time: '09:00' }, after: { enabled: true, send_time: '08:30' } },
  'client.automated_opt_out': { before: { automated_messages_opt_out: false }, after: { automated_messages_opt_out: true } },
  'client.merge': {
    before: { merged_client_id: 41, mb_client_id: '100041', mb_unique_id: 9000041, email_address: 'ada@studio.test', survivor_mb_client_id: '100040' },
    after: { client_id: 40, mb_site_id: -99, mb_client_id: '100040', mb_unique_id: 9000040, reason: 'same_unique_id', moved: { favorites: 2, pushes: 1 } },
  },
  'segment.create': {
    before: null,
    after: { name: 'Lapsed app users', filter: { last_activity_days: 30, no_class_days: 14, app_installed: true, vod_access_level: [3, 0], tag: ['vip'] } },
  },
  'segment.update': { before: { name: 'Lapsed', filter: { no_stream_days: 30 } }, after: { name: 'Lapsed', filter: { no_stream_days: 30, opted_out: false } } },
  'segment.delete': { before: { name: 'Everyone', filter: {} }, after: null },
  'broadcast.create': {
    before: null,
    after: {
      kind: 'push',
      title: 'We miss you',
      body: 'Come back',
      segment_id: null,
      filter: { last_activity_days: 74, no_class_days: 14, no_stream_days: 14, snoozed: false },
      recipients: 240,
      status: 'scheduled',
      send_at: '2026-11-23T09:00:00.000Z',
    },
  },
  'broadcast.edit': { before: { title: 'Old', body: 'Old' }, after: { title: 'New', body: 'New' } },
  'broadcast.send': { before: { status: 'draft' }, after: { status: 'sending', recipients: 240 } },
  'broadcast.cancel': { before: { status: 'scheduled' }, after: { status: 'cancelled' } },
  'broadcast.winner': { before: null, after: { winner: 1, reason: 'better', metric: 'conversion' } },
  'client.contact': { before: null, after: { kind: 'left_message', note: 'Asked about the timetable' } },
  'client.snooze': { before: null, after: { snoozed_until: '2026-11-29T12:00:00.000Z', note: 'On holiday' } },
  'client.export': { before: null, after: { format: 'zip' } },
  'client.erase': { before: null, after: { client: 'erased client #42', reason: 'Erasure request by e-mail', outside: ['algolia', 'revenuecat'] } },
  'data_request.log': { before: null, after: { kind: 'erasure', received_at: '2026-11-20T09:00:00.000Z' } },
  'data_request.handled': { before: null, after: null },
  'retention.update': { before: { debug_reports_days: 90 }, after: { debug_reports_days: 30 } },
  'revenue.backfill': { before: null, after: null },
  'auth.two_step_enable': { before: null, after: { method: 'totp' } },
  'auth.two_step_disable': { before: { two_step: true }, after: { two_step: false } },
  'auth.two_step_reset': {
    before: { two_step: true },
    after: { two_step: false, email: 'desk@studio.test', sessions_ended: 2, passkeys_removed: 1, via: 'cli' },
  },
  'auth.two_step_required': { before: { required: false }, after: { required: true } },
  'auth.reauth': { before: null, after: { method: 'password' } },
  'auth.reauth_failed': { before: null, after: { purpose: 'reauth', reason: 'wrong code', limit_reached: false } },
  'auth.passkey_add': { before: null, after: { passkey_id: 3, name: 'Work laptop' } },
  'auth.passkey_remove': { before: { passkey_id: 3, name: 'Work laptop' }, after: null },
};

const translate = (key: string, options?: Record<string, unknown>) => i18nProvider.translate(key, options) as string;
const { names, fieldLabel } = valueNamesFor(
  translate,
  new Map([
    [1, 'VOD | FREE'],
    [3, 'VOD | PREMIUM'],
  ]),
);
const words = (change: Change) => changeLines(change, names).map((line) => changeText(line, fieldLabel(line.field)));

describe('the audit log in words', () => {
  it('has a sample for exactly the recorded actions', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...AUDIT_ACTIONS].sort());
  });

  it.each([...AUDIT_ACTIONS])('names %s and shows its changes without JSON', (action) => {
    expect(translate(`audit.actions.${action}`), action).not.toBe(`audit.actions.${action}`);
    for (const line of words(SAMPLES[action])) {
      expect(line, action).not.toMatch(/[{}[\]"]|":/);
      expect(line, action).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    }
  });

  it('writes a saved filter as its conditions', () => {
    expect(words(SAMPLES['segment.create'])).toEqual([
      'Name: Lapsed app users',
      'Clients: Access level: VOD | PREMIUM, no level; Tags: vip; A class or stream within the last 30 days; No class within the last 14 days; App: installed',
    ]);
    expect(words(SAMPLES['segment.delete'])).toEqual(['Name: Everyone', 'Clients: All clients']);
    expect(words(SAMPLES['broadcast.create'])).toContain(
      'Clients: A class or stream within the last 74 days; No class within the last 14 days; No stream within the last 14 days; Not snoozed',
    );
  });

  it('names a passkey and how many went with a reset', () => {
    expect(words(SAMPLES['auth.passkey_add'])).toEqual(['Passkey: 3', 'Name: Work laptop']);
    expect(words(SAMPLES['auth.two_step_reset'])).toContain('Passkeys removed: — → 1');
  });

  it('writes other stored objects as their parts, and dates in the console format', () => {
    expect(words(SAMPLES['client.merge'])).toContain('Moved: — → Favorites: 2; Pushes: 1');
    expect(words(SAMPLES['client.snooze'])[0]).toMatch(/^Snoozed until: Nov 29, 2026, 12:00\sPM$/);
    expect(words(SAMPLES['client.override_grant'])).toContain('VOD access level: VOD | FREE → VOD | PREMIUM');
  });
});
