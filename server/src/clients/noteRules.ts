/** Pure rules of notes and tags. */

/** Only the author may edit or delete a note; a note whose author's account is gone stays as it is. */
export const mayChangeNote = (authorStaffId: number | null, staffId: number | null | undefined) =>
  authorStaffId !== null && staffId !== null && staffId !== undefined && Number(authorStaffId) === staffId;

/** A client's tags as stored: each once, in alphabetical order (already normalized by the contract). */
export const tagSet = (tags: readonly string[]) => [...new Set(tags)].sort();

/** Whether two tag lists hold the same tags. */
export const sameTags = (a: readonly string[], b: readonly string[]) => tagSet(a).join('\n') === tagSet(b).join('\n');
