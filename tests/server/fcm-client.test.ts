import { generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFcmClient, fcmErrorCode, rejectsToken, type FcmClientOptions } from '../../server/src/integrations/fcm/client';
import { createFcmSandbox } from '../../server/src/integrations/fcm';
import { loadConfig } from '../../server/src/config';
import { startFcmStandIn, type FcmStandIn } from '../support/fcmStandIn';
import { testClock } from '../support/server';

const message = { title: 'Great class!', body: 'See you on Monday', data: { kind: 'direct' } };

describe('FCM HTTP v1 client against a local stand-in', () => {
  let standIn: FcmStandIn;
  let waits: number[];
  beforeEach(async () => {
    standIn = await startFcmStandIn();
    waits = [];
  });
  afterEach(async () => standIn.close());

  const client = (options: FcmClientOptions = {}) =>
    createFcmClient({ apiUrl: standIn.url, serviceAccount: standIn.serviceAccount }, { sleep: async (ms) => void waits.push(ms), ...options });

  it('sends the documented message with a service-account access token, fetched once and reused', async () => {
    const fcm = client();
    const first = await fcm.send('device-token-1', message);
    const second = await fcm.send('device-token-2', { title: 'Hi', body: 'there' });

    expect(first).toMatchObject({ token: 'device-token-1', outcome: 'sent' });
    expect(first.message_id).toMatch(/^projects\/studio-test\/messages\/0:/);
    expect(second.outcome).toBe('sent');
    expect(standIn.state.tokensIssued).toBe(1);
    const [sent] = standIn.sends();
    expect(sent!.path).toBe('/v1/projects/studio-test/messages:send');
    expect(sent!.headers.authorization).toMatch(/^Bearer ya29\./);
    expect(sent!.body).toEqual({
      message: { token: 'device-token-1', notification: { title: 'Great class!', body: 'See you on Monday' }, data: { kind: 'direct' } },
    });
    expect(standIn.sends()[1]!.body.message).not.toHaveProperty('data');
  });

  it('answers UNREGISTERED as a dead token without retrying', async () => {
    standIn.state.unregistered.add('gone');
    const result = await client().send('gone', message);
    expect(result).toMatchObject({ token: 'gone', outcome: 'dead', code: 'UNREGISTERED' });
    expect(result.error).toContain('404 UNREGISTERED');
    expect(standIn.sends()).toHaveLength(1);
    expect(standIn.state.delivered).toHaveLength(0);
  });

  it('answers a token FCM calls not a valid registration token (INVALID_ARGUMENT on message.token) as dead, without retrying', async () => {
    standIn.state.invalid.add('not-a-token');
    const result = await client().send('not-a-token', message);
    expect(result).toMatchObject({ token: 'not-a-token', outcome: 'dead', code: 'INVALID_ARGUMENT' });
    expect(result.error).toContain('not a valid FCM registration token');
    expect(standIn.sends()).toHaveLength(1);
  });

  it('answers QUOTA_EXCEEDED at once as deferred, with the Retry-After FCM gave, and does not wait', async () => {
    standIn.fail({ status: 429, retryAfter: '3', times: 1 });
    const result = await client().send('device', message);
    expect(result).toMatchObject({ outcome: 'deferred', code: 'QUOTA_EXCEEDED', retry_after_ms: 3000 });
    expect(result.error).toContain('429 QUOTA_EXCEEDED');
    expect(waits).toEqual([]);
    expect(standIn.sends()).toHaveLength(1);
  });

  it('answers UNAVAILABLE at once as deferred', async () => {
    standIn.fail({ status: 503, times: 1 });
    const result = await client().send('device', message);
    expect(result).toMatchObject({ outcome: 'deferred', code: 'UNAVAILABLE' });
    expect(result).not.toHaveProperty('retry_after_ms');
    expect(waits).toEqual([]);
    expect(standIn.state.delivered).toHaveLength(0);
  });

  it('backs off exponentially with jitter on 500 INTERNAL, then delivers', async () => {
    standIn.fail({ status: 500, times: 2 });
    const result = await client().send('device', message);
    expect(result.outcome).toBe('sent');
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(400);
    expect(waits[0]).toBeLessThanOrEqual(600);
    expect(waits[1]).toBeGreaterThanOrEqual(800);
    expect(waits[1]).toBeLessThanOrEqual(1200);
  });

  it('gives up after the last attempt and says what FCM answered', async () => {
    standIn.fail({ status: 500, times: Infinity });
    const result = await client({ maxAttempts: 3 }).send('device', message);
    expect(result).toMatchObject({ outcome: 'failed', code: 'INTERNAL' });
    expect(result.error).toContain('FCM answered 500 INTERNAL');
    expect(standIn.sends()).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it('does not hold the caller when Retry-After asks for longer than it may wait', async () => {
    standIn.fail({ status: 500, retryAfter: '120', times: Infinity });
    const result = await client().send('device', message);
    expect(result).toMatchObject({ outcome: 'failed', code: 'INTERNAL' });
    expect(result.error).toContain('FCM asks to wait 120 s');
    expect(standIn.sends()).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('abandons an attempt that hangs past the timeout and retries it', async () => {
    standIn.fail({ hang: true, times: 1 });
    const result = await client({ timeoutMs: 300 }).send('device', message);
    expect(result.outcome).toBe('sent');
    expect(standIn.sends()).toHaveLength(2);
    expect(waits).toHaveLength(1);
  });

  it('stops calling an FCM that keeps failing, says when to retry, and lets one probe through after the cool-down', async () => {
    const clock = testClock();
    standIn.fail({ status: 500, times: 5 });
    const fcm = client({ maxAttempts: 3, now: clock.now });
    expect(await fcm.send('device', message)).toMatchObject({ outcome: 'failed', code: 'INTERNAL' });
    // Five failures in a row open the breaker: the second send's third attempt is not made.
    const refused = await fcm.send('device', message);
    expect(refused).toMatchObject({ outcome: 'failed', code: 'unavailable' });
    expect(refused.error).toMatch(/FCM is unavailable right now after repeated failures; retry in \d+ s/);
    expect(standIn.sends()).toHaveLength(5);
    expect((await fcm.send('device', message)).code).toBe('unavailable');
    expect(standIn.sends()).toHaveLength(5);
    clock.advance(31_000);
    expect(await fcm.send('device', message)).toMatchObject({ outcome: 'sent' });
    expect(standIn.sends()).toHaveLength(6);
  });

  it('reports a timeout when every attempt hangs', async () => {
    standIn.fail({ hang: true, times: Infinity });
    const result = await client({ timeoutMs: 200, maxAttempts: 2 }).send('device', message);
    expect(result).toMatchObject({ outcome: 'failed', code: 'timeout', error: 'FCM did not answer within 0.2 s' });
  });

  it('fetches a new access token when FCM answers 401, once', async () => {
    const fcm = client();
    await fcm.send('device', message);
    standIn.revokeAccessTokens();
    const result = await fcm.send('device', message);
    expect(result.outcome).toBe('sent');
    expect(standIn.state.tokensIssued).toBe(2);
  });

  it('renews the access token shortly before it expires', async () => {
    const clock = testClock();
    const fcm = client({ now: clock.now });
    await fcm.send('device', message);
    clock.advance(3599_000 - 30_000);
    await fcm.send('device', message);
    expect(standIn.state.tokensIssued).toBe(2);
  });

  it('does not retry a message FCM refuses (400 INVALID_ARGUMENT)', async () => {
    standIn.fail({ status: 400, errorCode: 'INVALID_ARGUMENT', times: 1 });
    const result = await client().send('device', message);
    expect(result).toMatchObject({ outcome: 'failed', code: 'INVALID_ARGUMENT' });
    expect(standIn.sends()).toHaveLength(1);
  });

  it('reports credentials Google refuses without calling FCM', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const fcm = createFcmClient({ apiUrl: standIn.url, serviceAccount: { ...standIn.serviceAccount, private_key: other } });
    const result = await fcm.send('device', message);
    expect(result).toMatchObject({ outcome: 'failed', code: 'auth' });
    expect(result.error).toContain('Invalid JWT Signature');
    expect(standIn.sends()).toHaveLength(0);
  });
});

describe('FCM wire helpers', () => {
  it('takes an INVALID_ARGUMENT as a bad token only when FCM says the token is the problem', () => {
    const answer = (message: string, details: object[] = []) => ({ error: { code: 400, message, status: 'INVALID_ARGUMENT', details } });
    expect(rejectsToken(answer('The registration token is not a valid FCM registration token'), 'INVALID_ARGUMENT')).toBe(true);
    expect(
      rejectsToken(
        answer('Invalid value', [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'message.token' }] }]),
        'INVALID_ARGUMENT',
      ),
    ).toBe(true);
    expect(
      rejectsToken(
        answer('Message is too big', [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'message.data' }] }]),
        'INVALID_ARGUMENT',
      ),
    ).toBe(false);
    expect(rejectsToken(answer('The registration token is not a valid FCM registration token'), 'UNAVAILABLE')).toBe(false);
    expect(rejectsToken('<html>Bad Request</html>', 'INVALID_ARGUMENT')).toBe(false);
  });

  it('reads FCM errorCode from details before the canonical status', () => {
    const body = {
      error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND', details: [{ '@type': 'x', errorCode: 'UNREGISTERED' }] },
    };
    expect(fcmErrorCode(body, 404).code).toBe('UNREGISTERED');
    expect(fcmErrorCode({ error: { status: 'NOT_FOUND' } }, 404).code).toBe('UNREGISTERED');
    expect(fcmErrorCode({ error: { status: 'UNAVAILABLE' } }, 503).code).toBe('UNAVAILABLE');
    expect(fcmErrorCode('<html>', 502).code).toBe('HTTP_502');
  });
});

describe('FCM sandbox and configuration', () => {
  it('records every push as delivered, and answers a token marked UNREGISTERED as dead', async () => {
    const sandbox = createFcmSandbox(testClock());
    expect(sandbox.mode).toBe('sandbox');
    expect(await sandbox.send('abc', message)).toMatchObject({ token: 'abc', outcome: 'sent' });
    expect(await sandbox.send('x-UNREGISTERED', message)).toMatchObject({ outcome: 'dead', code: 'UNREGISTERED' });
  });

  it('uses the sandbox without a service account and the live client with one', () => {
    expect(loadConfig({}).fcm).toBeNull();
    const key = {
      type: 'service_account',
      project_id: 'p1',
      client_email: 'a@p1.iam.gserviceaccount.com',
      private_key: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n',
    };
    const config = loadConfig({ FCM_SERVICE_ACCOUNT_JSON: JSON.stringify(key) });
    expect(config.fcm).toEqual({ apiUrl: 'https://fcm.googleapis.com', serviceAccount: { ...key, token_uri: 'https://oauth2.googleapis.com/token' } });
  });

  it('names the bad variable when the service account is unusable', () => {
    expect(() => loadConfig({ FCM_SERVICE_ACCOUNT_JSON: '{not json' })).toThrow(/FCM_SERVICE_ACCOUNT_JSON is not JSON/);
    expect(() => loadConfig({ FCM_SERVICE_ACCOUNT_JSON: '{"project_id":"p"}' })).toThrow(
      /FCM_SERVICE_ACCOUNT_JSON is not a usable service-account key: client_email/,
    );
    expect(() => loadConfig({ FCM_SERVICE_ACCOUNT_FILE: '/nonexistent/key.json' })).toThrow(
      /FCM_SERVICE_ACCOUNT_FILE names a file that cannot be read \(ENOENT\)/,
    );
    expect(() => loadConfig({ FCM_API_URL: 'http://fcm.example.com' })).toThrow(/FCM_API_URL must use https/);
  });
});
