import { z } from 'zod';
import { NOTE_MAX, TAG_MAX, TAG_PATTERN, TAG_SUGGESTIONS_MAX, TAGS_PER_CLIENT_MAX, normalizeTag } from './notesRules';

/** Staff notes about a client, and the client's tags (limits and spelling: notesRules.ts). */
export { NOTE_MAX, TAG_MAX, TAG_PATTERN, TAG_SUGGESTIONS_MAX, TAGS_PER_CLIENT_MAX, normalizeTag } from './notesRules';

export const Tag = z
  .string({ message: 'a tag must be text' })
  .transform(normalizeTag)
  .pipe(
    z
      .string()
      .min(1, 'a tag must not be empty')
      .max(TAG_MAX, `a tag must be at most ${TAG_MAX} characters`)
      .regex(TAG_PATTERN, "a tag holds letters, digits, spaces, '-' and '_', and starts with a letter or digit"),
  );

export const Note = z.object({
  id: z.number().int(),
  client_id: z.number().int(),
  body: z.string(),
  author_email: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  mine: z.boolean().describe('Written by the signed-in staff member: only they may edit or delete it'),
});
export type Note = z.infer<typeof Note>;

export const NoteBody = z.object({
  body: z
    .string({ message: 'body is required: the note text' })
    .trim()
    .min(1, 'body must not be empty')
    .max(NOTE_MAX, `body must be at most ${NOTE_MAX} characters`),
});
export type NoteBody = z.input<typeof NoteBody>;

export const NotesResponse = z.object({ notes: z.array(Note).describe('Newest first') });

export const TagsBody = z.object({
  tags: z
    .array(Tag, { message: 'tags must be a list of tags' })
    .max(TAGS_PER_CLIENT_MAX, `a client has at most ${TAGS_PER_CLIENT_MAX} tags`)
    .describe(`The client's tags from now on (replaces them; at most ${TAGS_PER_CLIENT_MAX}, each at most ${TAG_MAX} characters)`),
});
export const TagsResponse = z.object({ tags: z.array(z.string()).describe('In alphabetical order') });
export type TagsResponse = z.infer<typeof TagsResponse>;

export const TagSuggestionsQuery = z.object({
  q: z.string().max(TAG_MAX).optional().describe('The start of a tag (case-insensitive); absent: the most used tags'),
});
export const TagSuggestion = z.object({ tag: z.string(), clients: z.number().int().describe('How many clients carry it') });
export const TagSuggestionsResponse = z.object({ tags: z.array(TagSuggestion).describe(`The most used first, at most ${TAG_SUGGESTIONS_MAX}`) });
export type TagSuggestionsResponse = z.infer<typeof TagSuggestionsResponse>;
