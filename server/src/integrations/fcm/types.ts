/** What one push carries; FCM wants string values in `data`. */
export interface PushMessage {
  title: string;
  body: string;
  data?: Record<string, string>;
  /**
   * The same message sent again carries the same key: Android shows it in place of the earlier one
   * (android.notification.tag), iOS as one notification (apns-collapse-id, at most 64 bytes), a
   * browser likewise (webpush notification tag). A broadcast sends again what a stopped server may
   * have sent, so a device shows it once.
   */
  collapse_key?: string;
}

export type TokenOutcome =
  /** FCM accepted the message for this token. */
  | 'sent'
  /** FCM answered UNREGISTERED, or the token belongs to another project or is not a valid token: never use it again. */
  | 'dead'
  /** Not delivered for another reason (after every retry); the token may work next time. */
  | 'failed'
  /**
   * FCM asked to come back later (QUOTA_EXCEEDED, UNAVAILABLE): not retried while the caller waits;
   * the push service retries it from the job queue (`retry_at`).
   */
  | 'deferred';

export interface TokenResult {
  token: string;
  outcome: TokenOutcome;
  /** FCM's message name (projects/…/messages/…) when sent. */
  message_id?: string;
  /** FCM errorCode (UNREGISTERED, QUOTA_EXCEEDED, …) or our own (timeout, network). */
  code?: string;
  /** Safe to show to staff. */
  error?: string;
  /** Deferred: how long FCM's Retry-After asked to wait, when it said. */
  retry_after_ms?: number;
  /** Deferred: when the push service tries this token again (ISO 8601). */
  retry_at?: string;
}

/** The one FCM interface the server uses; routes and jobs never know whether it is real or the sandbox. */
export interface FcmSender {
  readonly mode: 'live' | 'sandbox';
  /** Sends to one registration token; never throws for an FCM refusal, it answers it as the result. */
  send(token: string, message: PushMessage, signal?: AbortSignal): Promise<TokenResult>;
}
