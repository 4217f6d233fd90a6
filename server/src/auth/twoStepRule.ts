import type { FastifyInstance } from 'fastify';
import { recordAudit, type Actor } from '../audit/record';
import type { Transaction } from '../db/client';
import { appSetting, setAppSetting } from './twoStepQueries';

/** The owner's rule: every staff account must have two-step sign-in (app_settings 'require_two_step'). */
const SETTING = 'require_two_step';
// Read on every API call of an account without two-step; a change reaches other instances within this long.
const CACHE_MS = 2_000;

export const TWO_STEP_SETUP_REQUIRED =
  'An owner requires two-step sign-in for every staff account: set it up (user menu, Two-step sign-in) before anything else.';

// By database, not by Fastify instance: a route's plugin scope is another instance than the guard's.
const cached = new WeakMap<object, { value: boolean; at: number }>();

export async function isTwoStepRequired(app: FastifyInstance): Promise<boolean> {
  const now = app.clock.now().getTime();
  const hit = cached.get(app.database);
  if (hit && now - hit.at < CACHE_MS && now >= hit.at) return hit.value;
  const value = (await appSetting(app.database, SETTING)) === 'on';
  cached.set(app.database, { value, at: now });
  return value;
}

/** Turns the rule on or off, audited; this instance sees it at once. */
export async function setTwoStepRequired(app: FastifyInstance, tx: Transaction, required: boolean, actor: Actor): Promise<void> {
  // Inside the transaction only: PGlite has one connection, which the transaction holds.
  const before = (await appSetting(tx, SETTING)) === 'on';
  await setAppSetting(tx, SETTING, required ? 'on' : 'off');
  await recordAudit(tx, {
    ...actor,
    action: 'auth.two_step_required',
    target_type: 'setting',
    target_id: SETTING,
    before: { required: before },
    after: { required },
  });
  cached.set(app.database, { value: required, at: app.clock.now().getTime() });
}
