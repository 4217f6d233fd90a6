export type MindbodyErrorKind =
  /** 429 after every retry */
  | 'rate_limited'
  /** no answer within the timeout, after every retry */
  | 'timeout'
  /** connection refused/reset, DNS, … after every retry */
  | 'network'
  /** 5xx after every retry */
  | 'server'
  /** a 4xx Mindbody answers on purpose (bad parameter, unknown client, …) */
  | 'request'
  /** the API key or the staff credentials were refused */
  | 'auth'
  /** a 2xx whose body is not what the API documents */
  | 'malformed'
  /** refused at once: repeated failures opened the circuit breaker (the message says when to retry) */
  | 'unavailable'
  /** the caller aborted (server shutdown) */
  | 'aborted'
  /** not sent: the day's call budget (MINDBODY_DAILY_CALL_LIMIT) is used up */
  | 'budget';

/** Every failure of a Mindbody call; the message is safe to record and show to staff. */
export class MindbodyError extends Error {
  constructor(
    message: string,
    public readonly kind: MindbodyErrorKind,
    public readonly status?: number,
    /** Mindbody's Error.Code (e.g. InvalidParameter, ClientNotFound) when it sent one. */
    public readonly code?: string,
    /** For 'aborted': what the last attempt before the cancellation ran into, if anything. */
    public readonly lastKind?: MindbodyErrorKind,
  ) {
    super(message);
    this.name = 'MindbodyError';
  }
}
