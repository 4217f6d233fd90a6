/**
 * RevenueCat's own sample webhook bodies, as published in the RevenueCat/docs repository
 * (commit bf39a9cd, code_blocks/integrations/webhooks/<file>; rendered at
 * https://www.revenuecat.com/docs/integrations/webhooks/sample-events). Kept verbatim: tests feed
 * them to the webhook as RevenueCat would send them. The samples share one event id, so
 * `asDelivered` gives each delivery its own id and can move the sample's times to the test clock.
 */
type Body = { api_version: string; event: Record<string, unknown> };

/** sample-events_1.json */
export const INITIAL_PURCHASE_SAMPLE: Body = {
  event: {
    event_timestamp_ms: 1658726378679,
    product_id: 'com.subscription.weekly',
    period_type: 'NORMAL',
    purchased_at_ms: 1658726374000,
    expiration_at_ms: 1659331174000,
    environment: 'PRODUCTION',
    entitlement_id: null,
    entitlement_ids: ['pro'],
    presented_offering_id: null,
    transaction_id: '123456789012345',
    original_transaction_id: '123456789012345',
    is_family_share: false,
    country_code: 'US',
    app_user_id: '1234567890',
    aliases: ['$RCAnonymousID:8069238d6049ce87cc529853916d624c'],
    original_app_user_id: '$RCAnonymousID:87c6049c58069238dce29853916d624c',
    currency: 'USD',
    price: 4.99,
    price_in_purchased_currency: 4.99,
    subscriber_attributes: {
      $email: {
        updated_at_ms: 1662955084635,
        value: 'firstlast@gmail.com',
      },
    },
    store: 'APP_STORE',
    takehome_percentage: 0.7,
    tax_percentage: 0.0,
    commission_percentage: 0.3,
    offer_code: null,
    type: 'INITIAL_PURCHASE',
    id: '12345678-1234-1234-1234-123456789012',
    app_id: '1234567890',
    experiments: [
      {
        experiment_id: 'prexp123',
        experiment_variant: 'b',
        enrolled_at_ms: 1658726378679,
      },
    ],
  },
  api_version: '1.0',
};

/** sample-events_9.json */
export const CANCELLATION_REFUND_SAMPLE: Body = {
  event: {
    event_timestamp_ms: 1601337615995,
    product_id: 'com.revenuecat.myapp.monthly',
    period_type: 'NORMAL',
    purchased_at_ms: 1601258901000,
    expiration_at_ms: 1601336705000,
    environment: 'PRODUCTION',
    entitlement_id: 'pro',
    entitlement_ids: ['pro'],
    presented_offering_id: 'defaultoffering',
    transaction_id: '100000000000000',
    original_transaction_id: '100000000000000',
    app_user_id: '$RCAnonymousID:12345678-1234-ABCD-1234-123456789123',
    aliases: ['$RCAnonymousID:12345678-1234-1234-1234-123456789123', 'user_1234'],
    offer_code: null,
    original_app_user_id: '$RCAnonymousID:12345678-1234-1234-1234-123456789123',
    cancel_reason: 'CUSTOMER_SUPPORT',
    currency: 'USD',
    price: -9.99,
    price_in_purchased_currency: -9.99,
    subscriber_attributes: {
      $idfa: {
        value: '12345678-1234-1234-1234-12345678912x',
        updated_at_ms: 1578018408238,
      },
      $appsflyerId: {
        value: '1234567891234-1234567',
        updated_at_ms: 1578018408238,
      },
    },
    store: 'APP_STORE',
    takehome_percentage: 0.7,
    tax_percentage: 0.1109,
    commission_percentage: 0.3,
    type: 'CANCELLATION',
    id: '12345678-1234-1234-1234-12345678912',
    experiments: [
      {
        experiment_id: 'prexp123',
        experiment_variant: 'b',
        enrolled_at_ms: 1762274791000,
      },
    ],
  },
  api_version: '1.0',
};

/** sample-events_13.json */
export const EXPIRATION_SAMPLE: Body = {
  event: {
    event_timestamp_ms: 1697451462232,
    product_id: 'com.subscription.weekly',
    period_type: 'NORMAL',
    purchased_at_ms: 1696846623000,
    expiration_at_ms: 1697451423000,
    environment: 'PRODUCTION',
    entitlement_id: null,
    entitlement_ids: ['pro'],
    presented_offering_id: null,
    transaction_id: '123456789012345',
    original_transaction_id: '123456789012345',
    is_family_share: false,
    country_code: 'US',
    app_user_id: '1234567890',
    aliases: ['$RCAnonymousID:8069238d6049ce87cc529853916d624c'],
    original_app_user_id: '$RCAnonymousID:8069238d6049ce87cc529853916d624c',
    expiration_reason: 'UNSUBSCRIBE',
    currency: 'USD',
    price: 0.0,
    price_in_purchased_currency: 0.0,
    subscriber_attributes: {
      $email: {
        updated_at_ms: 1662955084635,
        value: 'firstlast@gmail.com',
      },
    },
    store: 'APP_STORE',
    takehome_percentage: 0.7,
    offer_code: null,
    tax_percentage: 0.012,
    commission_percentage: 0.3,
    type: 'EXPIRATION',
    id: '12345678-1234-1234-1234-123456789012',
    app_id: '1234567890',
    experiments: [
      {
        experiment_id: 'prexp123',
        experiment_variant: 'b',
        enrolled_at_ms: 1762274791000,
      },
    ],
  },
  api_version: '1.0',
};

/** sample-events_14.json */
export const SUBSCRIPTION_EXTENDED_SAMPLE: Body = {
  event: {
    event_timestamp_ms: 1697451462232,
    product_id: 'com.subscription.weekly',
    period_type: 'NORMAL',
    purchased_at_ms: 1696846623000,
    expiration_at_ms: 1697451423000,
    environment: 'PRODUCTION',
    entitlement_id: null,
    entitlement_ids: ['pro'],
    presented_offering_id: null,
    transaction_id: '123456789012345',
    original_transaction_id: '123456789012345',
    is_family_share: false,
    country_code: 'US',
    app_user_id: '1234567890',
    aliases: ['$RCAnonymousID:8069238d6049ce87cc529853916d624c'],
    original_app_user_id: '$RCAnonymousID:8069238d6049ce87cc529853916d624c',
    currency: 'USD',
    price: 0.0,
    price_in_purchased_currency: 0.0,
    subscriber_attributes: {
      $email: {
        updated_at_ms: 1662955084635,
        value: 'firstlast@gmail.com',
      },
    },
    store: 'APP_STORE',
    takehome_percentage: 0.7,
    offer_code: null,
    tax_percentage: 0.012,
    commission_percentage: 0.3,
    type: 'SUBSCRIPTION_EXTENDED',
    id: '12345678-1234-1234-1234-123456789012',
    app_id: '1234567890',
    experiments: [
      {
        experiment_id: 'prexp123',
        experiment_variant: 'b',
        enrolled_at_ms: 1762274791000,
      },
    ],
  },
  api_version: '1.0',
};

/** sample-event-refund-reversed.json */
export const REFUND_REVERSED_SAMPLE: Body = {
  event: {
    event_timestamp_ms: 1697451462232,
    product_id: 'com.subscription.weekly',
    period_type: 'NORMAL',
    purchased_at_ms: 1696846623000,
    expiration_at_ms: 1697451423000,
    environment: 'PRODUCTION',
    entitlement_id: null,
    entitlement_ids: ['pro'],
    presented_offering_id: null,
    transaction_id: '123456789012345',
    original_transaction_id: '123456789012345',
    is_family_share: false,
    country_code: 'US',
    app_user_id: '1234567890',
    aliases: ['$RCAnonymousID:8069238d6049ce87cc529853916d624c'],
    original_app_user_id: '1234567890',
    currency: 'USD',
    price: 5.0,
    price_in_purchased_currency: 5.0,
    subscriber_attributes: {
      $email: {
        updated_at_ms: 1662955084635,
        value: 'firstlast@gmail.com',
      },
    },
    store: 'APP_STORE',
    takehome_percentage: 0.7,
    offer_code: null,
    tax_percentage: 0.012,
    commission_percentage: 0.3,
    metadata: null,
    renewal_number: 3,
    type: 'REFUND_REVERSED',
    id: '12345678-1234-1234-1234-123456789012',
    app_id: '1234567890',
    experiments: [
      {
        experiment_id: 'prexp123',
        experiment_variant: 'b',
        enrolled_at_ms: 1762274791000,
      },
    ],
  },
  api_version: '1.0',
};

/** sample-events_2.json: a weekly renewal bought in EUR (price in USD, price_in_purchased_currency in EUR). */
export const RENEWAL_SAMPLE: Body = {
  event: {
    event_timestamp_ms: 1658726405017,
    product_id: 'com.subscription.weekly',
    period_type: 'NORMAL',
    purchased_at_ms: 1658755132000,
    expiration_at_ms: 1659359932000,
    environment: 'PRODUCTION',
    entitlement_id: null,
    entitlement_ids: ['pro'],
    presented_offering_id: null,
    transaction_id: '123456789012345',
    original_transaction_id: '123456789012345',
    is_family_share: false,
    country_code: 'DE',
    app_user_id: '1234567890',
    aliases: ['$RCAnonymousID:8069238d6049ce87cc529853916d624c'],
    original_app_user_id: '$RCAnonymousID:87c6049c58069238dce29853916d624c',
    currency: 'EUR',
    is_trial_conversion: false,
    price: 8.14,
    price_in_purchased_currency: 7.99,
    subscriber_attributes: {
      $email: {
        updated_at_ms: 1662955084635,
        value: 'firstlast@gmail.com',
      },
    },
    store: 'APP_STORE',
    takehome_percentage: 0.7,
    tax_percentage: 0.0,
    commission_percentage: 0.3,
    offer_code: null,
    type: 'RENEWAL',
    id: '12345678-1234-1234-1234-123456789012',
    app_id: '1234567890',
  },
  api_version: '1.0',
};

/** sample-event-temporary-entitlement-grant.json */
export const TEMPORARY_ENTITLEMENT_GRANT_SAMPLE: Body = {
  event: {
    event_timestamp_ms: 1744824815307,
    app_user_id: '41234567890',
    store: 'APP_STORE',
    type: 'TEMPORARY_ENTITLEMENT_GRANT',
    id: '12345678-1234-1234-1234-123456789012',
    app_id: '1234567890',
  },
  api_version: '1.0',
};

const TIME_FIELDS = ['event_timestamp_ms', 'purchased_at_ms', 'expiration_at_ms', 'grace_period_expiration_at_ms', 'auto_resume_at_ms'];

/**
 * A copy of a sample as one more delivery: a fresh event id, every time field moved by the same
 * amount so the event happens at `eventAt` (when given), then `extra` merged into `event`.
 */
export function asDelivered(sample: Body, options: { id: string; eventAt?: Date; extra?: Record<string, unknown> }): Body {
  const event: Record<string, unknown> = { ...structuredClone(sample.event), id: options.id };
  if (options.eventAt) {
    const shift = options.eventAt.getTime() - Number(sample.event.event_timestamp_ms);
    for (const field of TIME_FIELDS) if (typeof event[field] === 'number') event[field] = (event[field] as number) + shift;
  }
  return { ...sample, event: { ...event, ...options.extra } };
}
