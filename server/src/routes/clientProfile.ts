import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@contract/common';
import { Id } from '@contract/ids';
import { TIMELINE_KINDS, TimelineQuery, TimelineResponse } from '@contract/timeline';
import { Note, NoteBody, NotesResponse, TagsBody, TagsResponse, TagSuggestionsQuery, TagSuggestionsResponse } from '@contract/notes';
import { auditActor } from '../audit/record';
import { addNote, clientTags, deleteNote, listNotes, requireClient, setTags, tagSuggestions, updateNote } from '../clients/notes';
import { clientTimeline } from '../clients/timeline';
import { clientGlance } from '../clients/glance';
import { ClientGlance } from '@contract/glance';

const ADMIN = '/api/admin/v1';
const tags = ['client profile (extension)'];
const ClientParams = z.object({ id: Id });
const NoteParams = z.object({ id: Id });
const noteTags = ['client profile (extension)', 'notes and tags'];

/** The client's profile beyond the spec's sections: at a glance, the timeline, staff notes and tags. */
const clientProfileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    `${ADMIN}/clients/:id/timeline`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags,
        summary: "The client's timeline: everything that happened to them, newest first",
        description:
          `One feed from the stored records: class visits (signed in, missed, late-cancelled), streams, purchases and RevenueCat events ` +
          `(renewal, cancellation, expiration, refund…), overrides granted, extended, ended by staff or by expiry (with the reason and who), ` +
          `pushes (staff, automated, broadcast), contract syncs and notes. kinds: ${TIMELINE_KINDS.join(', ')} (comma-separated). ` +
          'Keyset paged: pass `next` as `before` for older entries. 404: no such client.',
        params: ClientParams,
        querystring: TimelineQuery,
        response: { 200: TimelineResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { kinds, before, limit } = request.query;
      return clientTimeline(app.database, { clientId: request.params.id, kinds, before, limit, now: app.clock.now() });
    },
  );

  app.get(
    `${ADMIN}/clients/:id/glance`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags,
        summary:
          'The client at a glance: member since, last class and stream, plan and its renewal or expiry, override end, purchases, devices, Mindbody status, tags',
        description:
          "The plan is the purchase giving access now; its renewal or expiry date is shown apart from a running override's end. 404: no such client.",
        params: ClientParams,
        response: { 200: ClientGlance, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return clientGlance(app.database, request.params.id, app.clock.now());
    },
  );

  app.get(
    `${ADMIN}/clients/:id/notes`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags: noteTags,
        summary: "Staff notes about the client, newest first ('mine': the signed-in staff member wrote it)",
        params: ClientParams,
        response: { 200: NotesResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { notes: await listNotes(app.database, request.params.id, request.staff?.id ?? null) };
    },
  );

  app.post(
    `${ADMIN}/clients/:id/notes`,
    {
      config: { permission: 'clients.notes' },
      schema: {
        tags: noteTags,
        summary: 'Add a note about the client (audited); 404: no such client',
        params: ClientParams,
        body: NoteBody,
        response: { 200: Note, ...errorResponses },
      },
    },
    async (request) => addNote(app.database, request.params.id, request.body.body, auditActor(request)),
  );

  app.put(
    `${ADMIN}/notes/:id`,
    {
      config: { permission: 'clients.notes' },
      schema: {
        tags: noteTags,
        summary: "Edit one's own note (audited); 403: another staff member's, 404: no such note",
        params: NoteParams,
        body: NoteBody,
        response: { 200: Note, ...errorResponses },
      },
    },
    async (request) => updateNote(app.database, request.params.id, request.body.body, auditActor(request)),
  );

  app.delete(
    `${ADMIN}/notes/:id`,
    {
      config: { permission: 'clients.notes' },
      schema: {
        tags: noteTags,
        summary: "Delete one's own note (audited, with its text); 403: another staff member's, 404: no such note",
        params: NoteParams,
        response: { 200: z.object({ id: z.number().int() }), ...errorResponses },
      },
    },
    async (request) => deleteNote(app.database, request.params.id, auditActor(request)),
  );

  app.get(
    `${ADMIN}/clients/:id/tags`,
    {
      config: { permission: 'clients.read' },
      schema: { tags: noteTags, summary: "The client's tags", params: ClientParams, response: { 200: TagsResponse, ...errorResponses } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      await requireClient(app.database, request.params.id);
      return { tags: await clientTags(app.database, request.params.id) };
    },
  );

  app.put(
    `${ADMIN}/clients/:id/tags`,
    {
      config: { permission: 'clients.notes' },
      schema: {
        tags: noteTags,
        summary: "Set the client's tags (replaces them; audited when they change)",
        description: "Tags are trimmed and lower-cased ('VIP ' and 'vip' are one tag); the client lists filter by them (`tag`). 404: no such client.",
        params: ClientParams,
        body: TagsBody,
        response: { 200: TagsResponse, ...errorResponses },
      },
    },
    async (request) => ({ tags: await setTags(app.database, request.params.id, request.body.tags, auditActor(request)) }),
  );

  app.get(
    `${ADMIN}/tags`,
    {
      config: { permission: 'clients.read' },
      schema: {
        tags: noteTags,
        summary: 'Tags in use, the most used first (the tag field autocompletes from these)',
        querystring: TagSuggestionsQuery,
        response: { 200: TagSuggestionsResponse, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { tags: await tagSuggestions(app.database, request.query.q) };
    },
  );
};

export default clientProfileRoutes;
