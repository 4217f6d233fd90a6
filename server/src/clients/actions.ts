import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Client } from '@contract/clients';
import type { ActionError, ContractSyncResponse, FavoritesUpdateBody, PushNotificationResponse, UpdateAccessLevelResponse } from '@contract/clientActions';
import { isPlaceholder, overrideEndProblem } from '@contract/clientRules';
import { recordAudit, type Actor } from '../audit/record';
import type { Database, Queryable } from '../db/client';
import { HttpError, notFound } from '../lib/errors';
import { grantOverride } from './accessOverride';
import { isExtension } from './overrideRules';
import { syncContracts } from './contractSync';
import { findClientId, requireClientId } from './lookup';
import { lockGrantState } from './overrideQueries';
import { addFavorite, clientSiteId, levelSortOrders, removeFavorite, videoIdByVimeoId } from './queries';

/** The four things staff do to one client (the spec's modals and calls), each with its audit entry. */

const refuse = (status: number, path: string, message: string) => new HttpError(status, message, [{ path, message }]);

type Favorite = z.output<typeof FavoritesUpdateBody>;

/**
 * Adds a video to, or removes it from, the client's favorites. An unknown client or video is an
 * `errors` entry and changes nothing; adding twice or removing what is not there is no action.
 */
export async function updateFavorite(database: Database, change: Favorite, actor: Actor): Promise<{ errors: ActionError[] }> {
  const { vimeo_video_id, email_address, mb_client_id, video_category_id, update_type } = change;
  const errors: ActionError[] = [];
  const clientId = await findClientId(database, { email: email_address, mbClientId: mb_client_id });
  if (clientId === null) errors.push({ path: 'email_address', message: 'No client matches that email_address or mb_client_id', code: 'unknown_client' });
  const videoId = await videoIdByVimeoId(database, vimeo_video_id);
  if (videoId === undefined) errors.push({ path: 'vimeo_video_id', message: `No video with Vimeo id ${vimeo_video_id} in the library`, code: 'unknown_video' });
  if (clientId === null || videoId === undefined) return { errors };
  const favorite = { vimeo_video_id, video_id: videoId };
  await database.transaction(async (tx) => {
    const changed =
      update_type === 'add'
        ? await addFavorite(tx, { clientId, videoId, categoryId: video_category_id, at: actor.at })
        : await removeFavorite(tx, clientId, videoId);
    if (!changed) return;
    await recordAudit(tx, {
      ...actor,
      action: update_type === 'add' ? 'client.favorite_add' : 'client.favorite_remove',
      target_type: 'client',
      target_id: clientId,
      client_id: clientId,
      before: update_type === 'add' ? null : favorite,
      after: update_type === 'add' ? favorite : null,
    });
  });
  return { errors: [] };
}

/**
 * Gives the client another VOD access level until `until` (in the future, at most `maxDays` ahead:
 * OVERRIDE_MAX_DAYS), with the grant and its audit entry in one transaction. The same level as a
 * running override, ending later, is recorded as an extension. 400: an unknown level or a date out
 * of range; 404: no such client.
 */
export async function grantAccessLevel(database: Database, grant: AccessLevelGrant, actor: Actor): Promise<UpdateAccessLevelResponse> {
  const problem = overrideEndProblem(grant.until, actor.at, grant.maxDays);
  if (problem) throw refuse(400, 'adminOverrideDate', problem);
  const levels = await levelSortOrders(database);
  if (!levels.includes(grant.level)) {
    throw refuse(400, 'new_vod_access_level', `new_vod_access_level ${grant.level} is not an access level (levels: ${levels.join(', ')})`);
  }
  const client = await database.transaction((tx) => grantAccessLevelIn(tx, grant, actor));
  return { errors: [], client };
}

export interface AccessLevelGrant {
  clientId: number;
  level: number;
  until: Date;
  maxDays: number;
  reason?: string | null;
}

/**
 * The override and its audit entry, in the caller's transaction: one client's grant, or one target of
 * a bulk job inside `job.transaction` (so a worker whose lease ran out writes nothing). The level is
 * the caller's to check.
 */
export async function grantAccessLevelIn(tx: Queryable, grant: AccessLevelGrant, actor: Actor): Promise<Client> {
  const { clientId, level, until } = grant;
  const reason = grant.reason ? grant.reason : null;
  const problem = overrideEndProblem(until, actor.at, grant.maxDays);
  if (problem) throw refuse(400, 'adminOverrideDate', problem);
  const before = await lockGrantState(tx, clientId);
  const granted = before ? await grantOverride(tx, { clientId, level, until, now: actor.at, grantedBy: actor.staff?.email ?? null, reason }) : null;
  if (!before || !granted) throw refuse(404, 'client_id', `No client with id ${clientId}`);
  const runningUntil = before.admin_updated_expiration;
  const extends_ = isExtension({ level: before.vod_access_level, until: runningUntil }, { level, until }, actor.at);
  await recordAudit(tx, {
    ...actor,
    action: extends_ ? 'client.override_extend' : 'client.override_grant',
    target_type: 'client',
    target_id: clientId,
    client_id: clientId,
    before: { vod_access_level: before.vod_access_level, admin_updated_expiration: runningUntil?.toISOString() ?? null },
    after: { vod_access_level: level, admin_updated_expiration: until.toISOString(), ...(reason ? { reason } : {}) },
  });
  return granted;
}

/**
 * Pushes a notification to the client's devices through the push service (which records the push
 * before sending), and records who did it. FCM asking to wait answers at once, queued for a job.
 */
export async function pushToClient(
  app: Pick<FastifyInstance, 'database' | 'push'>,
  push: { email_address?: string | null; mb_client_id?: string | null; title: string; body: string; idempotencyKey?: string },
  actor: Actor,
): Promise<PushNotificationResponse> {
  const clientId = await requireClientId(app.database, { email: push.email_address, mbClientId: push.mb_client_id });
  const outcome = await app.push.sendToClient({
    clientId,
    title: push.title,
    body: push.body,
    sentBy: actor.staff ? { staffUserId: actor.staff.id, email: actor.staff.email } : undefined,
    source: 'console',
    idempotencyKey: push.idempotencyKey,
    // Staff get an answer at once; the job queue sends what FCM asked to wait for.
    queueRetries: true,
  });
  // The push service wrote the push in its own statements; this entry says who did it.
  await recordAudit(app.database, {
    ...actor,
    action: 'client.push',
    target_type: 'client',
    target_id: clientId,
    client_id: clientId,
    before: null,
    after: { title: push.title, body: push.body, updated: outcome.updated, push_id: outcome.push_id, ...(outcome.reason ? { reason: outcome.reason } : {}) },
  });
  return {
    updated: outcome.updated,
    ...(outcome.reason ? { message: outcome.reason } : {}),
    ...(outcome.queued ? { queued: true } : {}),
    push_id: outcome.push_id,
    results: outcome.results,
  };
}

/**
 * Fetches the client's contracts from Mindbody and replaces the stored copy; a Mindbody failure is an
 * `errors` entry and the stored copy stays. Without a site in the path: the client's own, else the
 * one site this server syncs. 404: no client with that Mindbody id (at that site).
 */
export async function syncClientContracts(
  app: Pick<FastifyInstance, 'database' | 'mindbody' | 'clock'>,
  key: { siteId: string; mbClientId: string },
  actor: Actor,
): Promise<ContractSyncResponse> {
  const { mbClientId } = key;
  const givenSite = isPlaceholder(key.siteId) ? null : Number(key.siteId);
  const clientId = await findClientId(app.database, { mbClientId, siteId: givenSite });
  if (clientId === null) throw notFound(`No client with MindBody id ${mbClientId}${givenSite === null ? '' : ` at site ${givenSite}`}`);
  const storedSite = await clientSiteId(app.database, clientId);
  const siteId = givenSite ?? storedSite ?? (app.mindbody.siteIds.length === 1 ? app.mindbody.siteIds[0]! : null);
  if (siteId === null) throw refuse(400, 'siteId', `siteId is required: client ${mbClientId} has no MindBody site stored`);
  const result = await syncContracts({ database: app.database, mindbody: app.mindbody, now: () => app.clock.now() }, { id: clientId, siteId, mbClientId });
  await recordAudit(app.database, {
    ...actor,
    action: 'client.contracts_sync',
    target_type: 'client',
    target_id: clientId,
    client_id: clientId,
    before: null,
    after:
      result.errors.length > 0
        ? { outcome: 'failed', errors: result.errors.map((error) => error.message) }
        : { outcome: 'stored', contracts: result.mbContracts.length },
  });
  return result;
}
