import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, ErrorResponse } from '../../../contract/common';
import {
  AddMessageError,
  AddMessageRequest,
  AddMessageSuccess,
  MessagesResponse,
  MessagingTypeParams,
  UpdateMessageRequest,
  UpdateMessageResponse,
} from '../../../contract/messaging';
import { unknownPlaceholders } from '../../../contract/placeholders';
import { badRequest, describeValidationError, notFound } from '../lib/errors';
import { addMessage, findMessage, listMessages, updateMessage } from '../messaging/store';
import { auditActor, changedFields, recordAudit } from '../audit/record';

const tags = ['messaging'];

/** Automated sending fills templates by itself: an enabled template must not contain a placeholder nothing fills. */
function unknownPlaceholderRefusal(fields: { title: string; message: string; enabled: boolean }): string | undefined {
  if (!fields.enabled) return undefined;
  const unknown = unknownPlaceholders(`${fields.title} ${fields.message}`);
  if (unknown.length === 0) return undefined;
  return `This message cannot be enabled: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a placeholder' : 'are not placeholders'}. Use {first_name}, {last_name}, {class_name}, {days_absent} or {class_count}, or save it disabled.`;
}

const messagingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/client/v1/messaging/:typeId',
    {
      schema: {
        tags,
        summary: 'Push-message templates of one message type (1-6)',
        params: MessagingTypeParams,
        response: { 200: MessagesResponse, ...errorResponses },
      },
    },
    async (request) => ({ messages: await listMessages(app.db, request.params.typeId) }),
  );

  app.post(
    '/api/client/v1/messaging/update',
    {
      schema: {
        tags,
        summary: 'Store one edited push-message template; answers the stored message',
        body: UpdateMessageRequest,
        response: { 200: UpdateMessageResponse, ...errorResponses },
      },
    },
    async (request) => {
      const { id, ...fields } = request.body;
      const refusal = unknownPlaceholderRefusal(fields);
      if (refusal) throw badRequest(refusal);
      const stored = await app.db.transaction(async (tx) => {
        const before = await findMessage(tx, id);
        if (!before) return undefined;
        const after = await updateMessage(tx, id, fields, app.clock.now());
        await recordAudit(tx, { ...auditActor(request), action: 'message.update', target_type: 'message', target_id: id, ...changedFields(before, after) });
        return after;
      });
      if (!stored) throw notFound(`Push message ${id} does not exist.`);
      request.log.info({ messageId: id, staff: request.staff?.email }, 'push message updated');
      return stored;
    },
  );

  app.post(
    '/api/client/v1/messaging/add-new',
    {
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
      const body = AddMessageRequest.parse(request.body);
      const refusal = unknownPlaceholderRefusal(body);
      if (refusal) return reply.status(400).send({ status: 'error' as const, message: refusal });
      const created = await app.db.transaction(async (tx) => {
        const message = await addMessage(tx, body, app.clock.now());
        await recordAudit(tx, { ...auditActor(request), action: 'message.create', target_type: 'message', target_id: message.id, before: null, after: message });
        return message;
      });
      request.log.info({ messageId: created.id, staff: request.staff?.email }, 'push message added');
      return { status: 'success' as const, push_message: created };
    },
  );
};

export default messagingRoutes;
