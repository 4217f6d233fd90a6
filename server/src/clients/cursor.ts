import type { ClientSortField } from '@contract/clientRules';
import { badRequest } from '../lib/errors';

/** Where a keyset page starts: after (sort value, id) of the row before it, in one sort and order. */
export interface Cursor {
  sort: ClientSortField;
  order: 'ASC' | 'DESC';
  value: string;
  id: number;
}

/** Cursors are signed: a value the SQL casts could choke on can only come from this server. */
export interface CursorSigner {
  sign(value: string): string;
  /** The signed value, or null when the signature does not match. */
  unsign(signed: string): string | null;
}

const NOT_OURS = 'after is not a cursor this server issued';

export function encodeCursor(cursor: Cursor, signer: CursorSigner): string {
  return signer.sign(Buffer.from(JSON.stringify([cursor.sort, cursor.order, cursor.value, cursor.id])).toString('base64url'));
}

export function decodeCursor(raw: string, sort: ClientSortField, order: 'ASC' | 'DESC', signer: CursorSigner): Cursor {
  const payload = signer.unsign(raw);
  if (payload === null) throw badRequest(NOT_OURS);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(NOT_OURS);
  }
  if (!Array.isArray(parsed) || parsed.length !== 4 || typeof parsed[2] !== 'string' || !Number.isSafeInteger(parsed[3])) {
    throw badRequest(NOT_OURS);
  }
  if (parsed[0] !== sort || parsed[1] !== order) {
    throw badRequest(`after belongs to another sort (${parsed[0]} ${parsed[1]}); send the sort and order of the page it came from`);
  }
  return { sort, order, value: parsed[2], id: parsed[3] };
}
