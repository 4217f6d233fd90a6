import { z } from 'zod';

/**
 * A RevenueCat webhook event. Only `id` and `type` are required: new event types and fields arrive
 * without notice (RevenueCat's webhook field reference; docs/integrations.md) and are stored as sent. What the server reads when present:
 * app_user_id, original_app_user_id, aliases, subscriber_attributes.$email, event_timestamp_ms,
 * product_id, new_product_id, entitlement_ids (entitlement_id), transaction_id,
 * original_transaction_id, purchased_at_ms, expiration_at_ms, cancel_reason, presented_offering_id,
 * subscriber_attributes.upsell_source, store, environment, transferred_from, transferred_to.
 */
export const RevenueCatEvent = z.looseObject({
  id: z.string().trim().min(1, 'is required').max(255),
  type: z.string().trim().min(1, 'is required').max(100),
});

export const RevenueCatWebhookBody = z.looseObject({
  api_version: z.string().optional(),
  event: RevenueCatEvent,
});
export type RevenueCatWebhookBody = z.infer<typeof RevenueCatWebhookBody>;

export const RevenueCatWebhookResponse = z.object({
  received: z.literal(true),
  /** true when this event id was already stored: nothing changed. */
  duplicate: z.boolean(),
});
export type RevenueCatWebhookResponse = z.infer<typeof RevenueCatWebhookResponse>;
