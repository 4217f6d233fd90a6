/** What one push carries; FCM wants string values in `data`. */
export interface PushMessage {
  title: string;
  body: string;
  data?: Record<string, string>;
}

export type TokenOutcome =
  /** FCM accepted the message for this token. */
  | 'sent'
  /** FCM answered UNREGISTERED (or the token belongs to another project): never use it again. */
  | 'dead'
  /** Not delivered for another reason (after every retry); the token may work next time. */
  | 'failed';

export interface TokenResult {
  token: string;
  outcome: TokenOutcome;
  /** FCM's message name (projects/…/messages/…) when sent. */
  message_id?: string;
  /** FCM errorCode (UNREGISTERED, QUOTA_EXCEEDED, …) or our own (timeout, network). */
  code?: string;
  /** Safe to show to staff. */
  error?: string;
}

/** The one FCM interface the server uses; routes and jobs never know whether it is real or the sandbox. */
export interface FcmSender {
  readonly mode: 'live' | 'sandbox';
  /** Sends to one registration token; never throws for an FCM refusal, it answers it as the result. */
  send(token: string, message: PushMessage, signal?: AbortSignal): Promise<TokenResult>;
}
