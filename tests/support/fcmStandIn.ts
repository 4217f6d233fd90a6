import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { ServiceAccount } from '../../server/src/integrations/fcm';

/**
 * A local stand-in for Google's OAuth2 token endpoint and FCM HTTP v1 messages:send
 * (FCM HTTP v1 messages.send): verifies the service account's RS256 JWT, issues access tokens, checks
 * the Bearer token and the message shape, answers UNREGISTERED for tokens a test names, and fails
 * on purpose when scripted (429 with Retry-After, 5xx, silence).
 */
export interface FcmFailure {
  status?: number;
  errorCode?: string;
  retryAfter?: string;
  /** Never answer (the client's timeout must fire). */
  hang?: boolean;
  /** With `hang`: the message is delivered first, only the answer is lost (a sender stopped while its request was out). */
  afterDelivery?: boolean;
  times: number;
}

export interface FcmRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- whatever the client sent, checked by the stand-in as FCM would
  body: any;
  status: number;
}

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

export async function startFcmStandIn(
  options: {
    projectId?: string;
    expiresIn?: number;
    /** FCM's per-project quota, scaled down: at most `limit` sends per `windowMs`, then 429 RESOURCE_EXHAUSTED with Retry-After. */
    quota?: { limit: number; windowMs: number };
  } = {},
) {
  let window = { start: Date.now(), used: 0 };
  const projectId = options.projectId ?? 'studio-test';
  const state = {
    accessTokens: new Set<string>(),
    tokensIssued: 0,
    unregistered: new Set<string>(),
    /** Tokens FCM does not take for registration tokens at all (malformed, from another app build). */
    invalid: new Set<string>(),
    failures: [] as FcmFailure[],
    /** 429s the quota answered. */
    quotaRefusals: 0,
    requests: [] as FcmRequest[],
    /**
     * The notifications the devices show: a message to a token that already shows one with the same
     * collapse identifier (android.notification.tag, apns-collapse-id) takes its place, as Android's
     * notification tag and APNs' collapse id do, and is counted in `replaced`. `requests` has every request.
     */
    delivered: [] as { token: string; notification: { title: string; body: string }; data?: Record<string, string>; tag?: string }[],
    /** Messages accepted that took the place of one a device already showed (the same token and collapse identifier). */
    replaced: 0,
  };
  const hanging = new Set<http.ServerResponse>();
  // Where each (token, collapse identifier) is in `delivered` (a test may empty the list: checked on use).
  const shownAt = new Map<string, number>();
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const form = (req.headers['content-type'] ?? '').includes('x-www-form-urlencoded');
    const record: FcmRequest = {
      path: url.pathname,
      headers: req.headers,
      body: form ? Object.fromEntries(new URLSearchParams(raw)) : raw ? JSON.parse(raw) : null,
      status: 0,
    };
    state.requests.push(record);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    const fcmError = (status: number, canonical: string, errorCode: string, message: string, headers: Record<string, string> = {}) =>
      send(
        status,
        { error: { code: status, message, status: canonical, details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] } },
        headers,
      );

    if (url.pathname === '/token') {
      const { grant_type, assertion } = record.body ?? {};
      if (grant_type !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || typeof assertion !== 'string') return send(400, { error: 'unsupported_grant_type' });
      const [header, claims, signature] = assertion.split('.');
      const valid = createVerify('RSA-SHA256')
        .update(`${header}.${claims}`)
        .verify(publicKey, Buffer.from(signature ?? '', 'base64url'));
      const payload = JSON.parse(Buffer.from(claims ?? '', 'base64url').toString());
      if (!valid) return send(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      if (payload.scope !== 'https://www.googleapis.com/auth/firebase.messaging' || payload.iss !== 'fcm@studio-test.iam.gserviceaccount.com') {
        return send(400, { error: 'invalid_scope', error_description: 'Invalid scope or issuer' });
      }
      const token = `ya29.${randomBytes(8).toString('hex')}`;
      state.accessTokens.add(token);
      state.tokensIssued++;
      return send(200, { access_token: token, expires_in: options.expiresIn ?? 3599, token_type: 'Bearer' });
    }

    const match = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(url.pathname);
    if (!match || req.method !== 'POST') return send(404, { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } });
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !state.accessTokens.has(bearer)) {
      return send(401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
    }
    if (options.quota) {
      const at = Date.now();
      if (at - window.start >= options.quota.windowMs) window = { start: at - ((at - window.start) % options.quota.windowMs), used: 0 };
      if (window.used >= options.quota.limit) {
        state.quotaRefusals++;
        const retryAfter = Math.max(1, Math.ceil((window.start + options.quota.windowMs - at) / 1000));
        return fcmError(429, 'RESOURCE_EXHAUSTED', 'QUOTA_EXCEEDED', 'Quota exceeded for quota metric', { 'retry-after': String(retryAfter) });
      }
      window.used++;
    }
    const failure = state.failures.find((f) => f.times > 0);
    let hangAfterDelivery = false;
    if (failure?.hang && failure.afterDelivery) {
      failure.times--;
      hangAfterDelivery = true;
    } else if (failure) {
      failure.times--;
      if (failure.hang) {
        hanging.add(res);
        record.status = -1;
        return;
      }
      const status = failure.status ?? 503;
      const code = failure.errorCode ?? (status === 429 ? 'QUOTA_EXCEEDED' : status === 500 ? 'INTERNAL' : 'UNAVAILABLE');
      const canonical = status === 429 ? 'RESOURCE_EXHAUSTED' : status === 500 ? 'INTERNAL' : 'UNAVAILABLE';
      return fcmError(status, canonical, code, `scripted ${status}`, failure.retryAfter ? { 'retry-after': failure.retryAfter } : {});
    }
    const message = record.body?.message;
    if (match[1] !== projectId) return fcmError(403, 'PERMISSION_DENIED', 'SENDER_ID_MISMATCH', 'SenderId mismatch');
    if (!message?.token) return fcmError(400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'Message must have a token');
    if (message.data && Object.values(message.data).some((v) => typeof v !== 'string'))
      return fcmError(400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'data values must be strings');
    if (state.invalid.has(message.token)) {
      // FCM's answer for a malformed registration token (ErrorCode INVALID_ARGUMENT, with the field named).
      return send(400, {
        error: {
          code: 400,
          message: 'The registration token is not a valid FCM registration token',
          status: 'INVALID_ARGUMENT',
          details: [
            { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'INVALID_ARGUMENT' },
            {
              '@type': 'type.googleapis.com/google.rpc.BadRequest',
              fieldViolations: [{ field: 'message.token', description: 'The registration token is not a valid FCM registration token' }],
            },
          ],
        },
      });
    }
    if (state.unregistered.has(message.token)) return fcmError(404, 'NOT_FOUND', 'UNREGISTERED', 'Requested entity was not found.');
    const tag: unknown = message.android?.notification?.tag;
    const collapseId: unknown = message.apns?.headers?.['apns-collapse-id'];
    if (collapseId !== undefined && (typeof collapseId !== 'string' || Buffer.byteLength(collapseId) > 64))
      return fcmError(400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'apns-collapse-id must be a string of at most 64 bytes');
    const shown = { token: message.token, notification: message.notification, data: message.data, ...(typeof tag === 'string' ? { tag } : {}) };
    const earlier = typeof tag === 'string' ? shownAt.get(`${message.token}\n${tag}`) : undefined;
    if (earlier !== undefined && state.delivered[earlier]?.token === message.token && state.delivered[earlier]?.tag === tag) {
      state.delivered[earlier] = shown;
      state.replaced++;
    } else {
      if (typeof tag === 'string') shownAt.set(`${message.token}\n${tag}`, state.delivered.length);
      state.delivered.push(shown);
    }
    if (hangAfterDelivery) {
      hanging.add(res);
      record.status = -1;
      return;
    }
    return send(200, { name: `projects/${projectId}/messages/0:${randomBytes(6).toString('hex')}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const serviceAccount: ServiceAccount = {
    project_id: projectId,
    client_email: 'fcm@studio-test.iam.gserviceaccount.com',
    private_key: PRIVATE_PEM,
    token_uri: `${base}/token`,
  };
  return {
    url: base,
    serviceAccount,
    state,
    fail: (failure: FcmFailure) => state.failures.push(failure),
    sends: () => state.requests.filter((r) => r.path.endsWith('/messages:send')),
    revokeAccessTokens: () => state.accessTokens.clear(),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FcmStandIn = Awaited<ReturnType<typeof startFcmStandIn>>;
