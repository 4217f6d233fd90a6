import { z } from 'zod';
import { ErrorResponse } from './common';
import { Int4Id, wholeNumber } from './ids';
import { MESSAGE_TYPES } from './messageTypes';

export * from './messageTypes';

const LAST_TYPE = MESSAGE_TYPES.length;
const NOT_A_TYPE = `must be a message type from 1 to ${LAST_TYPE}`;

/** Message types 1-6 (messageTypes.ts): High Five, Missed Class, #notetoself, Monday Morning, Cancelled Class, Extended Absense. */
export const MessageTypeId = z.number({ message: NOT_A_TYPE }).int(NOT_A_TYPE).min(1, NOT_A_TYPE).max(LAST_TYPE, NOT_A_TYPE);
/** A message type in a path: /…/{typeId}. */
export const messageTypeParam = () => wholeNumber({ min: 1, max: LAST_TYPE, message: NOT_A_TYPE });

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

/** A push-message template as stored (the spec's 'Push message'). */
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
export const MessagingTypeParams = z.object({ typeId: messageTypeParam() });
export const MessagesResponse = z.object({ messages: z.array(PushMessage) });
export type MessagesResponse = z.infer<typeof MessagesResponse>;

/**
 * POST /api/client/v1/messaging/update: one changed row as the console holds it. Extra fields the
 * console carries (msg_type_title, the local ranupdates flag) are accepted and ignored.
 */
export const UpdateMessageRequest = z.object({
  id: Int4Id,
  title,
  message: messageText,
  enabled,
  message_type: MessageTypeId.optional(),
});
export type UpdateMessageRequest = z.infer<typeof UpdateMessageRequest>;
/** The stored message after the update. */
export const UpdateMessageResponse = PushMessage;

/** POST /api/client/v1/messaging/add-new. The title is not validated beyond its length. */
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
