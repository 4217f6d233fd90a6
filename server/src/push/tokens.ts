import { isPlaceholder } from '../../../contract/clientRules';

/** The fields of a debug record that say which device sent it and how to reach it. */
export interface TokenRecord {
  firebase_token_new: string | null;
  firebase_token_current: string | null;
  platform: string | null;
  is_ipad: boolean | null;
}

export const MAX_DEVICES = 5;

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
    const device = `${(record.platform ?? '').toLowerCase()}|${record.is_ipad === true}`;
    if (devices.has(device)) continue;
    for (const candidate of [record.firebase_token_new, record.firebase_token_current]) {
      if (isPlaceholder(candidate)) continue;
      const token = candidate!.trim();
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
    return { tokens, reason: "The client has no usable device token: FCM reported every known token as no longer registered (the app was removed or signed out)" };
  }
  return { tokens, reason: "The client has no device token: the app's debug records carry no Firebase token (notifications may be turned off)" };
}
