import type { Queryable } from '../db/client';
import { addHeldOut, heldOutOf, insertAutomatedOutcome, insertBroadcastOutcomes } from './queries';
import { automatedSeed, broadcastSeed, isHeldOut } from './rules';

/**
 * A broadcast's audience split, once its recipients are fixed: every recipient gets an outcome row,
 * the held-out ones (holdoutDraw below the broadcast's share) leave broadcast_recipients, so they are
 * never sent to and its counts still add up to `recipients`. Answers how many were held out. The one
 * place the sending side calls; `sentAt` is when it is meant to go out.
 */
export async function splitBroadcastAudience(tx: Queryable, broadcastId: number, sentAt: Date): Promise<number> {
  const held = await insertBroadcastOutcomes(tx, broadcastId, broadcastSeed(broadcastId), sentAt);
  if (held > 0) await addHeldOut(tx, broadcastId, held);
  return held;
}

export interface AutomatedOutcome {
  automatedPushId: number;
  messageType: number;
  clientId: number;
  week: string;
  goal: string;
  windowDays: number;
  holdoutPercent: number;
  at: Date;
}

/**
 * An automated push's outcome row, the first time it comes to be sent; true when the client is held
 * out of the type this week (then it is not sent). A retry finds the row and the same answer.
 */
export async function recordAutomatedAudience(tx: Queryable, push: AutomatedOutcome): Promise<boolean> {
  const held = isHeldOut(automatedSeed(push.messageType, push.week), push.clientId, push.holdoutPercent);
  await insertAutomatedOutcome(tx, push, held);
  return (await heldOutOf(tx, push.automatedPushId)) ?? held;
}
