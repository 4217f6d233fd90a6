import { deviceOf, usableTokens, type TokenRecord } from '../push/tokens';

/** A device that has reported within this long keeps its slot against reports that prove nothing. */
export const SLOT_HELD_MS = 30 * 24 * 60 * 60_000;

export interface PlacedRecord extends TokenRecord {
  id: number;
  /** When the server received it; the app's own sent_at is not trusted for ordering. */
  created_at: Date;
}

/**
 * The record holding each device slot of a client: per device, the newest record used for pushes
 * that carries a usable token. `records` are the client's used records, newest first.
 */
export function slotHolders(records: readonly PlacedRecord[]): Map<string, PlacedRecord> {
  const holders = new Map<string, PlacedRecord>();
  for (const record of records) {
    const device = deviceOf(record);
    if (!holders.has(device) && usableTokens(record).length > 0) holders.set(device, record);
  }
  return holders;
}

/**
 * Whether a new report may be pushed to. Everyone has the shared app key, so a report that proves
 * nothing (`verified` false) only gets a slot that is free: nobody holds it, its holder has not
 * reported for SLOT_HELD_MS, or FCM declared all the holder's tokens dead. It also keeps the slot
 * when it carries a token of the holder: FCM tokens are not public, so that is the same app
 * rotating its token. A report with a verified Firebase ID token proves the client and always may.
 */
export function mayUseForPush(
  report: Pick<TokenRecord, 'platform' | 'is_ipad' | 'firebase_token_new' | 'firebase_token_current'> & { verified: boolean },
  holders: ReadonlyMap<string, PlacedRecord>,
  dead: ReadonlySet<string>,
  now: Date,
): boolean {
  if (report.verified) return true;
  const holder = holders.get(deviceOf(report));
  if (!holder) return true;
  if (now.getTime() - holder.created_at.getTime() > SLOT_HELD_MS) return true;
  const held = usableTokens(holder);
  if (held.every((token) => dead.has(token))) return true;
  return usableTokens(report).some((token) => held.includes(token));
}
