import { z } from 'zod';
import { AccessLevel } from '@contract/accessLevels';
import { OptionVideo } from '@contract/clients';
import type { Queryable } from '../db/client';
import type { MindbodyContractRecord } from '../integrations/mindbody';
import { CLIENT_COLUMNS, ClientRow } from './listQueries';

/** One client's statements: finding them by a key, reading their row, their favorites and contracts, the access levels and video options. */

const Id = z.object({ id: z.number() });

/** By primary key: one plan fits every id. */
export async function clientRowById(database: Queryable, id: number, options: { reusePlan?: boolean } = {}): Promise<ClientRow | undefined> {
  const [row] = await database.rows(
    ClientRow,
    `SELECT ${CLIENT_COLUMNS} FROM clients c WHERE c.id = $1`,
    [id],
    options.reusePlan ? { reusePlan: true } : undefined,
  );
  return row;
}

/** Whether the client exists; `lock` holds their row for the caller's transaction. */
export async function clientIdExists(database: Queryable, clientId: number, lock = false): Promise<boolean> {
  return (await database.rows(Id, `SELECT id FROM clients WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [clientId])).length > 0;
}

/** The client by e-mail (case-insensitive), preferring the row whose MindBody id also matches (clients_email_idx). */
export async function clientIdByEmail(database: Queryable, email: string, mbClientId: string | null): Promise<number | undefined> {
  const rows = await database.rows(
    Id,
    `SELECT id FROM clients WHERE lower(email_address) = lower($1)
       ORDER BY (mb_client_id IS NOT DISTINCT FROM $2) DESC, id LIMIT 1`,
    [email, mbClientId],
    { reusePlan: true },
  );
  return rows[0]?.id;
}

/** The client by MindBody id, at that site when one is given (clients_mb_idx). */
export async function clientIdByMindbodyId(database: Queryable, mbClientId: string, site: number | null): Promise<number | undefined> {
  const rows =
    site === null
      ? await database.rows(Id, 'SELECT id FROM clients WHERE mb_client_id = $1 ORDER BY id LIMIT 1', [mbClientId], { reusePlan: true })
      : await database.rows(Id, 'SELECT id FROM clients WHERE mb_client_id = $1 AND mb_site_id = $2 ORDER BY id LIMIT 1', [mbClientId, site], {
          reusePlan: true,
        });
  return rows[0]?.id;
}

const SiteId = z.object({ mb_site_id: z.number().nullable() });

export async function clientSiteId(database: Queryable, clientId: number): Promise<number | null | undefined> {
  const [stored] = await database.rows(SiteId, 'SELECT mb_site_id FROM clients WHERE id = $1', [clientId]);
  return stored?.mb_site_id;
}

// Favorites

/** A video in the library (not deleted) by its Vimeo id. */
export async function videoIdByVimeoId(database: Queryable, vimeoVideoId: string): Promise<number | undefined> {
  const [video] = await database.rows(Id, 'SELECT id FROM videos WHERE vimeo_video_id = $1 AND deleted_at IS NULL', [vimeoVideoId]);
  return video?.id;
}

const Changed = z.object({ client_id: z.number() });

/** Adds a favorite; false when the client had it already. */
export async function addFavorite(
  tx: Queryable,
  favorite: { clientId: number; videoId: number; categoryId: number | null | undefined; at: Date },
): Promise<boolean> {
  const changed = await tx.rows(
    Changed,
    `INSERT INTO favorites (client_id, video_id, video_category_id, created_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (client_id, video_id) DO NOTHING RETURNING client_id`,
    [favorite.clientId, favorite.videoId, favorite.categoryId, favorite.at.toISOString()],
  );
  return changed.length > 0;
}

/** Removes a favorite; false when the client did not have it. */
export async function removeFavorite(tx: Queryable, clientId: number, videoId: number): Promise<boolean> {
  const changed = await tx.rows(Changed, 'DELETE FROM favorites WHERE client_id = $1 AND video_id = $2 RETURNING client_id', [clientId, videoId]);
  return changed.length > 0;
}

// Contracts

// The same sale listed twice (a paging overlap) would make the upsert touch one row twice.
function dedupe(records: readonly MindbodyContractRecord[]) {
  return [...new Map(records.map((record) => [record.id, record])).values()];
}

/**
 * Replaces the client's stored contracts with `records` in one statement (one transaction):
 * contracts Mindbody still lists are updated in place, new ones added, the rest removed.
 */
export async function replaceContracts(database: Queryable, clientId: number, records: readonly MindbodyContractRecord[], now: Date) {
  await database.execute(
    `WITH incoming AS (
       SELECT * FROM jsonb_to_recordset($2::jsonb) AS i(
         id bigint, contract_id bigint, site_id integer, agreement_date timestamptz, autopay_status text, contract_name text,
         start_date timestamptz, end_date timestamptz, termination_date timestamptz, original_location_id integer,
         upcoming_autopay_events jsonb)
     ), upserted AS (
       INSERT INTO contracts (client_id, id, contract_id, site_id, agreement_date, autopay_status, contract_name, start_date,
                              end_date, termination_date, original_location_id, upcoming_autopay_events, synced_at)
       SELECT $1, id, contract_id, site_id, agreement_date, autopay_status, contract_name, start_date, end_date,
              termination_date, original_location_id, coalesce(upcoming_autopay_events, '[]'::jsonb), $3
       FROM incoming
       ON CONFLICT (client_id, id) DO UPDATE SET
         contract_id = EXCLUDED.contract_id, site_id = EXCLUDED.site_id, agreement_date = EXCLUDED.agreement_date,
         autopay_status = EXCLUDED.autopay_status, contract_name = EXCLUDED.contract_name, start_date = EXCLUDED.start_date,
         end_date = EXCLUDED.end_date, termination_date = EXCLUDED.termination_date,
         original_location_id = EXCLUDED.original_location_id, upcoming_autopay_events = EXCLUDED.upcoming_autopay_events,
         synced_at = EXCLUDED.synced_at
       RETURNING id
     )
     DELETE FROM contracts WHERE client_id = $1 AND id NOT IN (SELECT id FROM incoming)`,
    [clientId, JSON.stringify(dedupe(records)), now.toISOString()],
  );
}

// Access levels and video options

export const accessLevelRows = (database: Queryable) => database.rows(AccessLevel, 'SELECT name, sort_order FROM access_levels ORDER BY sort_order');

const SortOrder = z.object({ sort_order: z.number() });

export async function levelSortOrders(database: Queryable): Promise<number[]> {
  return (await database.rows(SortOrder, 'SELECT sort_order FROM access_levels ORDER BY sort_order')).map((row) => row.sort_order);
}

/** A level's sort_order by its number, or by its name with or without the 'VOD | ' prefix. */
export async function levelByNumber(database: Queryable, sortOrder: number): Promise<number | undefined> {
  return (await database.rows(SortOrder, 'SELECT sort_order FROM access_levels WHERE sort_order = $1', [sortOrder]))[0]?.sort_order;
}

export async function levelByName(database: Queryable, name: string): Promise<number | undefined> {
  const rows = await database.rows(SortOrder, "SELECT sort_order FROM access_levels WHERE lower(name) = lower($1) OR lower(name) = lower('VOD | ' || $1)", [
    name,
  ]);
  return rows[0]?.sort_order;
}

const OptionRow = OptionVideo.extend({ category: z.string() });

/** Enabled, not deleted videos at or below the level, in category order. */
export const videoOptionRows = (database: Queryable, levelSortOrder: number) =>
  database.rows(
    OptionRow,
    `SELECT coalesce(vc.name, 'Uncategorized') AS category, v.vimeo_video_id, v.title, v.instructor, v.duration
     FROM videos v
     JOIN access_levels al ON al.id = v.access_level_id
     LEFT JOIN video_categories vc ON vc.id = v.category_id
     WHERE v.enabled AND v.deleted_at IS NULL AND al.sort_order <= $1
     ORDER BY vc.sort_order NULLS LAST, coalesce(vc.name, 'Uncategorized'), lower(v.title), v.id`,
    [levelSortOrder],
  );
