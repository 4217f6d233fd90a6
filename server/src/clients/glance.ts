import type { ClientGlance } from '@contract/glance';
import type { Queryable } from '../db/client';
import { notFound } from '../lib/errors';
import { planRenews, platformsOf, wholeDaysBetween } from './glanceRules';
import { clientTags } from './notes';
import { isoOrNull } from './rows';
import { glanceRow } from './sectionQueries';

/**
 * The client "at a glance": one statement of scalar subqueries, each served by
 * the client's (client_id, time DESC) index of its table, plus the tags. 404: no such client.
 */
export async function clientGlance(database: Queryable, clientId: number, now: Date): Promise<ClientGlance> {
  const row = await glanceRow(database, clientId, now);
  if (!row) throw notFound(`No client with id ${clientId}`);
  const plan = row.plan;
  const renews = planRenews(plan?.status ?? null);
  return {
    member_since: isoOrNull(row.member_since),
    last_class: row.class_at ? { at: isoOrNull(row.class_at)!, name: row.class_name ?? '' } : null,
    last_stream: row.stream_at ? { at: isoOrNull(row.stream_at)!, title: row.stream_title ?? '' } : null,
    level_name: row.level_name,
    plan: plan
      ? { name: plan.name, product: plan.product, status: plan.status, renews, ends_at: isoOrNull(renews ? plan.expires_at : plan.access_ends_at) }
      : null,
    override_ends_at: isoOrNull(row.override_ends_at),
    lifetime_purchases: Number(row.lifetime_purchases),
    platforms: platformsOf(row.devices ?? []),
    push_reachable: Boolean(row.push_reachable),
    mindbody_status: row.mindbody_status,
    mindbody_linked: (row.mb_client_id ?? '').trim().length > 2,
    tags: await clientTags(database, clientId),
    phone: row.phone,
    visits_total: Number(row.visits_total),
    visits_30d: Number(row.visits_30d),
    days_since_last_visit: row.class_at ? wholeDaysBetween(isoOrNull(row.class_at)!, now) : null,
    total_spent_usd: row.total_spent === null ? null : Math.round(Number(row.total_spent) * 100) / 100,
    last_app_open: isoOrNull(row.last_app_open),
    upcoming_classes: (row.upcoming ?? []).map((visit) => ({ at: isoOrNull(visit.at)!, name: visit.name ?? '' })),
  };
}
