import type { PushMessage } from '@contract/messaging';

/** A row as the page holds it: the stored message plus the spec's local "changed" flag. */
export type MessageRow = PushMessage & { ranupdates?: 'true' };
export type MessageEdit = Partial<Pick<PushMessage, 'title' | 'message' | 'enabled'>>;

/** Any edit marks the row changed, even one that restores the stored text. */
export function applyEdit(rows: MessageRow[], id: number, edit: MessageEdit): MessageRow[] {
  return rows.map((row) => (row.id === id ? { ...row, ...edit, ranupdates: 'true' } : row));
}

export function changedRows(rows: MessageRow[]): MessageRow[] {
  return rows.filter((row) => row.ranupdates === 'true');
}

const sameContent = (a: MessageRow, b: MessageRow) => a.title === b.title && a.message === b.message && a.enabled === b.enabled;

/**
 * After a save: a row whose update succeeded takes the stored values and loses its mark, unless it
 * was edited again while the call was under way (then the newer edit stays marked for the next save).
 */
export function markSaved(rows: MessageRow[], saved: { sent: MessageRow; stored: PushMessage }[]): MessageRow[] {
  const byId = new Map(saved.map((entry) => [entry.sent.id, entry]));
  return rows.map((row) => {
    const entry = byId.get(row.id);
    if (!entry || !sameContent(row, entry.sent)) return row;
    return { ...entry.stored };
  });
}

/**
 * A fresh list from the server (after adding a message, or a refetch) never overwrites rows with
 * unsaved edits; rows the server no longer has are dropped unless they carry edits.
 */
export function mergeFetched(local: MessageRow[], fetched: PushMessage[]): MessageRow[] {
  const edited = new Map(changedRows(local).map((row) => [row.id, row]));
  const merged: MessageRow[] = fetched.map((row) => edited.get(row.id) ?? { ...row });
  const fetchedIds = new Set(fetched.map((row) => row.id));
  for (const row of edited.values()) if (!fetchedIds.has(row.id)) merged.push(row);
  return merged;
}

/** How a row is named to staff when it failed to save: its title, or its position when untitled. */
export function rowLabel(rows: MessageRow[], row: MessageRow): string {
  const title = row.title.trim();
  return title === '' ? `#${rows.findIndex((r) => r.id === row.id) + 1}` : `'${title}'`;
}
