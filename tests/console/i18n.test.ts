import { describe, expect, it } from 'vitest';
import { i18nProvider } from '../../src/providers/i18nProvider';

const t = (key: string, options?: Record<string, unknown>) => i18nProvider.translate(key, options);

describe('English messages', () => {
  it("keeps the spec's spellings as they are", () => {
    expect(t('messaging.types.extended_absense')).toBe('Extended Absense');
    expect(t('client.sections.recent_videos.columns.viewed_on')).toBe('Vewied On');
    expect(t('messaging.notify.save_error')).toBe('An error occured while saving the message');
  });

  it('fills in the dates and names of the spec texts', () => {
    expect(t('messaging.title', { type: t('messaging.types.notetoself') })).toBe('Push Messaging - #notetoself');
    expect(t('client.override_note', { date: '2025-03-01' })).toBe('Admin granted this Access Level until 2025-03-01');
    expect(t('client.level_modal.warning', { date: '2025-03-08' })).toBe('Warning: Client will have new access level until 2025-03-08');
    expect(t('client.sections.contracts.autopay_entry', { amount: '49.00', date: '2025-04-01' })).toBe('$49.00 on 2025-04-01');
  });

  it('reaches entries keyed by number (override days, access level ids)', () => {
    expect([1, 7, 14, 21, 28].map((days) => t(`client.level_modal.override_choices.${days}`))).toEqual(['24 Hours', '1 Week', '2 Weeks', '3 Weeks', '4 Weeks']);
    expect(t('videos.access_levels.3')).toBe('VOD | PREMIUM');
  });

  it("falls back to react-admin's own English texts", () => {
    expect(t('ra.action.close')).toBe('Close');
  });
});
