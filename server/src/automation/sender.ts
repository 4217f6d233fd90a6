import type { Database } from '../db/client';

/**
 * What automated messages need from push delivery. The FCM adapter (server/src/integrations/fcm,
 * issue 5) sits behind it in production; the sandbox below delivers nowhere and is the embedded default.
 */
export type PushOutcome =
  | { status: 'sent' }
  /** The client has no usable device token (none reported, or all marked dead). */
  | { status: 'no_token' }
  | { status: 'failed'; error: string; retryable: boolean; retryAfterMs?: number };

export interface PushContent {
  title: string;
  body: string;
  data: Record<string, string>;
}

export interface AutomatedSender {
  sendToClient(push: PushContent & { clientId: number; messageType: number }): Promise<PushOutcome>;
  /** 'Send test to me': one device token, not a client. */
  sendToToken(push: PushContent & { token: string }): Promise<PushOutcome>;
}

/** The newest device token the client's app reported (debug records), or null. */
export async function latestDeviceToken(database: Database, clientId: number): Promise<string | null> {
  const [row] = await database.query<{ token: string | null }>(
    `SELECT COALESCE(NULLIF(firebase_token_new, ''), NULLIF(firebase_token_current, '')) AS token
     FROM debug_records WHERE client_id = $1
       AND COALESCE(NULLIF(firebase_token_new, ''), NULLIF(firebase_token_current, '')) IS NOT NULL
     ORDER BY sent_at DESC NULLS LAST, id DESC LIMIT 1`,
    [clientId],
  );
  return row?.token ?? null;
}

export interface SandboxSender extends AutomatedSender {
  /** Everything 'delivered', newest last (the demo and tests read it). */
  delivered: { clientId: number | null; token: string; title: string; body: string; data: Record<string, string> }[];
}

/**
 * Delivers nowhere: a client with a token in its debug records counts as sent; tokens starting with
 * 'invalid' fail for good, as FCM's UNREGISTERED would.
 */
export function createSandboxSender(database: Database): SandboxSender {
  const delivered: SandboxSender['delivered'] = [];
  const deliver = (clientId: number | null, token: string, push: PushContent): PushOutcome => {
    if (token.startsWith('invalid')) return { status: 'failed', error: 'UNREGISTERED: the device token is no longer valid', retryable: false };
    delivered.push({ clientId, token, title: push.title, body: push.body, data: push.data });
    return { status: 'sent' };
  };
  return {
    delivered,
    async sendToClient(push) {
      const token = await latestDeviceToken(database, push.clientId);
      if (!token) return { status: 'no_token' };
      return deliver(push.clientId, token, push);
    },
    async sendToToken(push) {
      return deliver(null, push.token, push);
    },
  };
}
