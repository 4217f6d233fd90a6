/**
 * RevenueCat webhook bodies in the shape of RevenueCat's documented sample events
 * (docs: integrations/webhooks/sample-events, event-types-and-fields): the same fields per type,
 * our own values. Each call gets a fresh event id unless the test gives one.
 */
let sequence = 0;

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export interface EventOptions {
  at: Date;
  appUserId?: string;
  email?: string | null;
  entitlement?: string | null;
  productId?: string;
  transactionId?: string;
  originalTransactionId?: string;
  purchasedAt?: Date;
  expiresAt?: Date | null;
  /** Merged into `event` last: extra or unknown fields, or overrides. */
  extra?: Record<string, unknown>;
}

const TYPE_FIELDS: Record<string, Record<string, unknown>> = {
  INITIAL_PURCHASE: {},
  RENEWAL: { is_trial_conversion: false },
  CANCELLATION: { cancel_reason: 'UNSUBSCRIBE' },
  UNCANCELLATION: {},
  NON_RENEWING_PURCHASE: { expiration_at_ms: null },
  SUBSCRIPTION_PAUSED: {},
  EXPIRATION: { expiration_reason: 'UNSUBSCRIBE' },
  BILLING_ISSUE: {},
  PRODUCT_CHANGE: { new_product_id: 'studio.premium.yearly' },
  SUBSCRIPTION_EXTENDED: {},
};

export function rcEvent(type: string, options: EventOptions): { api_version: string; event: Record<string, unknown> } {
  sequence++;
  const at = options.at.getTime();
  const purchasedAt = (options.purchasedAt ?? new Date(at - DAY)).getTime();
  const expiresAt = options.expiresAt === undefined ? purchasedAt + 30 * DAY : options.expiresAt === null ? null : options.expiresAt.getTime();
  const transactionId = options.transactionId ?? '490001234567890';
  const common = {
    id: `evt-${sequence}-${type.toLowerCase()}`,
    type,
    app_id: 'app5f2c1d9e',
    event_timestamp_ms: at,
    environment: 'PRODUCTION',
    store: 'APP_STORE',
  };

  if (type === 'TRANSFER') return { api_version: '1.0', event: { ...common, transferred_from: ['rc-from'], transferred_to: ['rc-to'], ...options.extra } };
  if (type === 'TEST')
    return { api_version: '1.0', event: { ...common, app_user_id: 'test-user', aliases: ['test-user'], original_app_user_id: 'test-user', ...options.extra } };

  const entitlement = options.entitlement === undefined ? 'premium' : options.entitlement;
  const event: Record<string, unknown> = {
    ...common,
    product_id: options.productId ?? 'studio.premium.monthly',
    period_type: 'NORMAL',
    purchased_at_ms: purchasedAt,
    expiration_at_ms: expiresAt,
    entitlement_id: null,
    entitlement_ids: entitlement === null ? null : [entitlement],
    presented_offering_id: 'default_offering',
    transaction_id: transactionId,
    original_transaction_id: options.originalTransactionId ?? transactionId,
    is_family_share: false,
    country_code: 'US',
    app_user_id: options.appUserId ?? 'rc-ada',
    aliases: ['$RCAnonymousID:5d0c9e2b7a1f4e3c8b6a9d2e1f0c3b4a', options.appUserId ?? 'rc-ada'],
    original_app_user_id: '$RCAnonymousID:5d0c9e2b7a1f4e3c8b6a9d2e1f0c3b4a',
    currency: 'USD',
    price: 14.99,
    price_in_purchased_currency: 14.99,
    subscriber_attributes: options.email === null ? {} : { $email: { updated_at_ms: at - HOUR, value: options.email ?? 'ada@example.test' } },
    takehome_percentage: 0.7,
    tax_percentage: 0.08,
    commission_percentage: 0.3,
    offer_code: null,
    experiments: [{ experiment_id: 'prexp9', experiment_variant: 'a', enrolled_at_ms: at - 2 * DAY }],
    ...TYPE_FIELDS[type],
  };
  if (type === 'NON_RENEWING_PURCHASE' && options.expiresAt === undefined) event.expiration_at_ms = null;
  if (type === 'SUBSCRIPTION_PAUSED') event.auto_resume_at_ms = (expiresAt ?? at) + 30 * DAY;
  if (type === 'BILLING_ISSUE') event.grace_period_expiration_at_ms = (expiresAt ?? at) + 16 * DAY;
  return { api_version: '1.0', event: { ...event, ...options.extra } };
}
