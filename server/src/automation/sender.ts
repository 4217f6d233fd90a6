import type { PushService } from '../push/service';

/**
 * What automated messages need from push delivery: the FCM push service (server/src/push/service.ts) sits behind it
 * (live or sandbox by config); tests may put a scripted sender in its place.
 */
export type PushOutcome =
  | { status: 'sent'; pushId?: number }
  /** The client has no usable device token (none reported, or all marked dead). */
  | { status: 'no_token'; pushId?: number; reason?: string }
  | { status: 'failed'; error: string; retryable: boolean; retryAfterMs?: number; pushId?: number };

export interface PushContent {
  title: string;
  body: string;
  data: Record<string, string>;
}

export interface AutomatedSender {
  /** `key` is unique per send attempt: a repeated call with it never pushes twice. */
  sendToClient(push: PushContent & { clientId: number; messageType: number; source: string; key: string }): Promise<PushOutcome>;
  /** 'Send test to me': one device token, not a client. */
  sendToToken(push: PushContent & { token: string }): Promise<PushOutcome>;
}

/**
 * Sends through the push service, so every automated push is in the `pushes` table (sender
 * 'automated', source = the message type's slug) next to the ones staff sent by hand.
 */
export function pushServiceSender(push: PushService): AutomatedSender {
  return {
    async sendToClient(message) {
      const outcome = await push.sendToClient({
        clientId: message.clientId,
        title: message.title,
        body: message.body,
        data: message.data,
        sentBy: 'automated',
        source: message.source,
        idempotencyKey: message.key,
      });
      if (outcome.updated) return { status: 'sent', pushId: outcome.push_id };
      if (outcome.results.length === 0) return { status: 'no_token', pushId: outcome.push_id, reason: outcome.reason };
      // A token FCM declared dead never works again; any other failure may pass later.
      const retryable = outcome.results.some((result) => result.outcome === 'failed');
      return { status: 'failed', error: outcome.reason ?? 'FCM did not deliver the push', retryable, pushId: outcome.push_id };
    },
    async sendToToken(message) {
      const result = await push.sendToToken(message.token, { title: message.title, body: message.body, data: message.data });
      if (result.outcome === 'sent') return { status: 'sent' };
      return { status: 'failed', error: result.error ?? result.code ?? 'FCM did not deliver the push', retryable: false };
    },
  };
}
