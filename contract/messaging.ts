import { z } from 'zod';
import { ErrorResponse } from './common';

/** Message types 1-6 (spec §2): High Five, Missed Class, #notetoself, Monday Morning, Cancelled Class, Extended Absense. */
export const MessageTypeId = z
  .number({ message: 'must be a message type from 1 to 6' })
  .int('must be a message type from 1 to 6')
  .min(1, 'must be a message type from 1 to 6')
  .max(6, 'must be a message type from 1 to 6');

/** Push notifications are short; these caps keep one template from filling a device's payload limit. */
export const MESSAGE_TITLE_MAX = 200;
export const MESSAGE_TEXT_MAX = 2000;

const title = z.string({ message: 'must be text' }).max(MESSAGE_TITLE_MAX, `must be at most ${MESSAGE_TITLE_MAX} characters`);
/** Whitespace-only content counts as empty: a push with no text is useless to a client. */
const messageText = z
  .string({ message: 'must be text' })
  .max(MESSAGE_TEXT_MAX, `must be at most ${MESSAGE_TEXT_MAX} characters`)
  .refine((text) => text.trim().length > 0, 'must not be empty');
const enabled = z.boolean({ message: 'must be true or false' });

/** A push-message template as stored (spec §3 'Push message'). */
export const PushMessage = z.object({
  id: z.number().int(),
  title: z.string(),
  message: z.string(),
  enabled: z.boolean(),
  message_type: z.number().int(),
  msg_type_title: z.string(),
});
export type PushMessage = z.infer<typeof PushMessage>;

/** GET /api/client/v1/messaging/{typeId} */
export const MessagingTypeParams = z.object({ typeId: z.coerce.number({ message: 'must be a message type from 1 to 6' }).pipe(MessageTypeId) });
export const MessagesResponse = z.object({ messages: z.array(PushMessage) });
export type MessagesResponse = z.infer<typeof MessagesResponse>;

/**
 * POST /api/client/v1/messaging/update: one changed row as the console holds it. Extra fields the
 * console carries (msg_type_title, the local ranupdates flag) are accepted and ignored.
 */
export const UpdateMessageRequest = z.object({
  id: z.number({ message: 'must be a message id' }).int('must be a message id').positive('must be a message id'),
  title,
  message: messageText,
  enabled,
  message_type: MessageTypeId.optional(),
});
export type UpdateMessageRequest = z.infer<typeof UpdateMessageRequest>;
/** The stored message after the update. */
export const UpdateMessageResponse = PushMessage;

/** POST /api/client/v1/messaging/add-new. The title is not validated beyond its length (spec §5). */
export const AddMessageRequest = z.object({
  enabled: enabled.default(false),
  message: messageText,
  message_type: MessageTypeId,
  title: title.default(''),
});
export type AddMessageRequest = z.input<typeof AddMessageRequest>;
export const AddMessageSuccess = z.object({ status: z.literal('success'), push_message: PushMessage });
/** add-new reports refusals in-band (status 'error') and with HTTP 400; nothing is stored. */
export const AddMessageError = ErrorResponse.extend({ status: z.literal('error') });
export const AddMessageResponse = z.union([AddMessageSuccess, AddMessageError]);
export type AddMessageResponse = z.infer<typeof AddMessageResponse>;
