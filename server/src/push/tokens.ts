import { isPlaceholder } from '@contract/clientRules';

/** The fields of a debug record that say which device sent it and how to reach it. */
export interface TokenRecord {
  firebase_token_new: string | null;
  firebase_token_current: string | null;
  platform: string | null;
  is_ipad: boolean | null;
}

export const MAX_DEVICES = 5;

/** Which device a record speaks for: its platform, and for iOS whether it is an iPad (an Android "iPad" is just Android). */
export function deviceOf(record: Pick<TokenRecord, 'platform' | 'is_ipad'>): string {
  const platform = (record.platform ?? '').trim().toLowerCase();
  return `${platform}|${platform === 'ios' && record.is_ipad === true}`;
}

/** The record's tokens worth pushing to (placeholders left out), the new one first. */
export function usableTokens(record: Pick<TokenRecord, 'firebase_token_new' | 'firebase_token_current'>): string[] {
  const tokens = [record.firebase_token_new, record.firebase_token_current].filter((token) => !isPlaceholder(token)).map((token) => token!.trim());
  return [...new Set(tokens)];
}

/**
 * The registration tokens to push to, from a client's debug records (newest first): one per
 * device (platform + iPad or not), from that device's newest record with a usable token — its new
 * token before its current one — skipping placeholders and tokens FCM declared dead. An older
 * record of a device is only read when its newer ones hold no usable token, so a rotated token is
 * not pushed to twice.
 */
export function deviceTokens(records: readonly TokenRecord[], dead: ReadonlySet<string>, max = MAX_DEVICES): { tokens: string[]; reason: string | null } {
  const devices = new Map<string, string>();
  const taken = new Set<string>();
  let seen = 0;
  let deadSeen = 0;
  for (const record of records) {
    const device = deviceOf(record);
    if (devices.has(device)) continue;
    for (const token of usableTokens(record)) {
      seen++;
      if (dead.has(token)) {
        deadSeen++;
        continue;
      }
      if (taken.has(token)) break;
      devices.set(device, token);
      taken.add(token);
      break;
    }
    if (devices.size >= max) break;
  }
  const tokens = [...devices.values()];
  if (tokens.length > 0) return { tokens, reason: null };
  if (records.length === 0) return { tokens, reason: 'The client has no device token: the app has not sent any debug information for this client' };
  if (seen > 0 && deadSeen === seen) {
    return {
      tokens,
      reason: 'The client has no usable device token: FCM reported every known token as no longer registered (the app was removed or signed out)',
    };
  }
  return { tokens, reason: "The client has no device token: the app's debug records carry no Firebase token (notifications may be turned off)" };
}
