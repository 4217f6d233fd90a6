import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, ErrorResponse } from '@contract/common';
import {
  AddMessageError,
  AddMessageRequest,
  AddMessageSuccess,
  MessagesResponse,
  MessagingTypeParams,
  UpdateMessageRequest,
  UpdateMessageResponse,
} from '@contract/messaging';
import { describeValidationError } from '../lib/errors';
import { listMessages } from '../messaging/queries';
import { createMessage, saveMessage } from '../messaging/edits';
import { auditActor } from '../audit/record';

const tags = ['messaging'];

const messagingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/client/v1/messaging/:typeId',
    {
      config: { permission: 'messaging.edit' },
      schema: {
        tags,
        summary: 'Push-message templates of one message type (1-6)',
        params: MessagingTypeParams,
        response: { 200: MessagesResponse, ...errorResponses },
      },
    },
    async (request) => ({ messages: await listMessages(app.database, request.params.typeId) }),
  );

  app.post(
    '/api/client/v1/messaging/update',
    {
      config: { permission: 'messaging.edit' },
      schema: {
        tags,
        summary: 'Store one edited push-message template; answers the stored message',
        body: UpdateMessageRequest,
        response: { 200: UpdateMessageResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { id, ...fields } = request.body;
      const stored = await saveMessage(app.database, id, fields, auditActor(request));
      request.log.info({ messageId: id, staff: request.staff?.id }, 'push message updated');
      return stored;
    },
  );

  app.post(
    '/api/client/v1/messaging/add-new',
    {
      config: { permission: 'messaging.edit' },
      // The console reads `status`, so refusals are answered in-band as well as with 400.
      attachValidation: true,
      schema: {
        tags,
        summary: "Add a push-message template; refusals answer status 'error' with 400",
        body: AddMessageRequest,
        response: { 200: AddMessageSuccess, ...errorResponses, 400: z.union([AddMessageError, ErrorResponse]) },
      },
    },
    async (request, reply) => {
      const invalid = describeValidationError(request.validationError);
      if (invalid) return reply.status(400).send({ status: 'error' as const, ...invalid });
      const outcome = await createMessage(app.database, AddMessageRequest.parse(request.body), auditActor(request));
      if ('refusal' in outcome) return reply.status(400).send({ status: 'error' as const, message: outcome.refusal });
      const { created } = outcome;
      request.log.info({ messageId: created.id, staff: request.staff?.id }, 'push message added');
      return { status: 'success' as const, push_message: created };
    },
  );
};

export default messagingRoutes;
