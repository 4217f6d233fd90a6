import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '@contract/common';
import { ContactBody, ContactEntry, ContactParams, SNOOZE_DAYS_MAX, SnoozeBody } from '@contract/contacts';
import { auditActor } from '../audit/record';
import { logContact, snoozeClient } from '../clients/contacts';

const ADMIN = '/api/admin/v1';
const tags = ['at risk (extension)'];

/**
 * The at-risk list's follow-ups (docs/features.md#at-risk): log a call, a text or a message left, and
 * snooze a client off the list. Writing about a client is what 'clients.notes' allows (the front desk
 * makes these calls).
 */
const clientContactRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    `${ADMIN}/clients/:id/contacts`,
    {
      config: { permission: 'clients.notes' },
      schema: {
        tags,
        summary: "Log a contact with the client (called, texted, left a message): on the client's timeline, and the at-risk list's 'last contacted'",
        params: ContactParams,
        body: ContactBody,
        response: { 200: ContactEntry, ...errorResponses },
      },
    },
    async (request) => logContact(app.database, request.params.id, request.body, auditActor(request)),
  );

  app.post(
    `${ADMIN}/clients/:id/snooze`,
    {
      config: { permission: 'clients.notes' },
      schema: {
        tags,
        summary: `Take the client off the at-risk list for 1-${SNOOZE_DAYS_MAX} days (on the client's timeline); while several run, until the latest end`,
        params: ContactParams,
        body: SnoozeBody,
        response: { 200: ContactEntry, ...errorResponses },
      },
    },
    async (request) => snoozeClient(app.database, request.params.id, request.body, auditActor(request)),
  );
};

export default clientContactRoutes;
