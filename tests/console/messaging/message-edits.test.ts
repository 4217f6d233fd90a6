import { describe, expect, it } from 'vitest';
import { applyEdit, changedRows, markSaved, mergeFetched, rowLabel, type MessageRow } from '../../../src/messaging/messageEdits';

const row = (id: number, title: string, message = `text ${id}`, enabled = true): MessageRow => ({
  id,
  title,
  message,
  enabled,
  message_type: 2,
  msg_type_title: 'Missed Class',
});

describe('applyEdit / changedRows', () => {
  it('marks only the edited row with ranupdates "true"', () => {
    const rows = applyEdit([row(1, 'A'), row(2, 'B')], 2, { enabled: false });
    expect(rows[0]).not.toHaveProperty('ranupdates');
    expect(rows[1]).toMatchObject({ enabled: false, ranupdates: 'true' });
    expect(changedRows(rows).map((r) => r.id)).toEqual([2]);
  });

  it('keeps every edited row marked', () => {
    let rows = [row(1, 'A'), row(2, 'B'), row(3, 'C')];
    rows = applyEdit(rows, 1, { title: 'A2' });
    rows = applyEdit(rows, 3, { message: 'new' });
    expect(changedRows(rows).map((r) => r.id)).toEqual([1, 3]);
  });
});

describe('markSaved', () => {
  it('clears the mark of saved rows only, taking the stored values', () => {
    const rows = applyEdit(applyEdit([row(1, 'A'), row(2, 'B')], 1, { title: 'A2' }), 2, { title: 'B2' });
    const after = markSaved(rows, [{ sent: rows[0]!, stored: { ...row(1, 'A2') } }]);
    expect(after[0]).toEqual(row(1, 'A2'));
    expect(after[1]).toMatchObject({ title: 'B2', ranupdates: 'true' });
  });

  it('keeps a row marked when it was edited again while its save was under way', () => {
    const rows = applyEdit([row(1, 'A')], 1, { title: 'A2' });
    const sent = rows[0]!;
    const editedAgain = applyEdit(rows, 1, { title: 'A3' });
    const after = markSaved(editedAgain, [{ sent, stored: row(1, 'A2') }]);
    expect(after[0]).toMatchObject({ title: 'A3', ranupdates: 'true' });
  });
});

describe('mergeFetched', () => {
  it('takes fresh rows but never overwrites unsaved edits', () => {
    const local = applyEdit([row(1, 'A'), row(2, 'B')], 2, { title: 'B edited' });
    const merged = mergeFetched(local, [row(1, 'A from server'), row(2, 'B from server'), row(3, 'New')]);
    expect(merged.map((r) => r.title)).toEqual(['A from server', 'B edited', 'New']);
    expect(changedRows(merged).map((r) => r.id)).toEqual([2]);
  });

  it('keeps an edited row the server no longer lists, so the edit is not silently lost', () => {
    const local = applyEdit([row(1, 'A')], 1, { title: 'A2' });
    expect(mergeFetched(local, []).map((r) => r.title)).toEqual(['A2']);
    expect(mergeFetched([row(5, 'gone')], [])).toEqual([]);
  });
});

describe('rowLabel', () => {
  it('names a row by its title, or by its position when untitled', () => {
    const rows = [row(7, 'We missed you'), row(9, '  ')];
    expect(rowLabel(rows, rows[0]!)).toBe("'We missed you'");
    expect(rowLabel(rows, rows[1]!)).toBe('#2');
  });
});
