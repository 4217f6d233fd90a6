import { hasMindBodyId, isPlaceholder } from '@contract/clients';
import type { Database } from '../db/client';
import { badRequest, notFound } from '../lib/errors';
import { clientIdByEmail, clientIdByMindbodyId } from './queries';

export interface ClientKey {
  email?: string | null;
  mbClientId?: string | null;
  /** MindBody site; a value that is not a whole number is ignored. */
  siteId?: string | number | null;
}

const usableEmail = (email: string | null | undefined) => (isPlaceholder(email) ? null : email!.trim());
const usableMindBodyId = (id: string | null | undefined) => {
  const trimmed = id?.trim();
  return !isPlaceholder(trimmed) && hasMindBodyId(trimmed) ? trimmed : null;
};
const usableSite = (site: string | number | null | undefined) =>
  typeof site === 'number' ? site : /^-?\d{1,9}$/.test(String(site ?? '').trim()) ? Number(String(site).trim()) : null;

/** Whether a key names a client at all (a real e-mail or a real MindBody id). */
export const isUsableKey = (key: ClientKey) => usableEmail(key.email) !== null || usableMindBodyId(key.mbClientId) !== null;

/**
 * The one rule every client-details call uses: the e-mail (case-insensitive) decides when given,
 * preferring the row whose MindBody id also matches; otherwise the MindBody id (at that site, when
 * a site is given). Both lookups are index-backed (clients_email_idx, clients_mb_idx), one plan for
 * every key.
 */
export async function findClientId(database: Database, key: ClientKey): Promise<number | null> {
  const email = usableEmail(key.email);
  const mbClientId = usableMindBodyId(key.mbClientId);
  if (email) {
    const id = await clientIdByEmail(database, email, mbClientId);
    if (id !== undefined) return id;
  }
  if (mbClientId) {
    const id = await clientIdByMindbodyId(database, mbClientId, usableSite(key.siteId));
    if (id !== undefined) return id;
  }
  return null;
}

/** findClientId for a route: 400 when the key names nobody, 404 when nobody matches. */
export async function requireClientId(database: Database, key: ClientKey): Promise<number> {
  if (!isUsableKey(key)) {
    throw badRequest('Identify the client by email or by a MindBody id longer than 2 characters');
  }
  const id = await findClientId(database, key);
  if (id === null) throw notFound('No client matches that email or MindBody id');
  return id;
}
