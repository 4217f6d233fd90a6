import { afterEach, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { CircuitOpenError, createCircuitBreaker } from '../../server/src/lib/circuitBreaker';
import { registerErrorHandler } from '../../server/src/lib/errors';
import { createVimeoClient } from '../../server/src/integrations/vimeo/client';
import { VimeoError, type CataloguePage } from '../../server/src/integrations/vimeo/types';
import { createMindbodyClient, type HttpClientOptions } from '../../server/src/integrations/mindbody/client';
import { MindbodyError } from '../../server/src/integrations/mindbody/errors';
import { startVimeoStandIn, vimeoPage, vimeoVideo, type StandInReply } from '../support/vimeoStandIn';
import { STAND_IN, startMindbodyStandIn, type MindbodyStandIn } from '../support/mindbodyStandIn';

function manualClock(start = 1_000_000) {
  let current = start;
  return { now: () => current, advance: (ms: number) => void (current += ms) };
}

const boom = () => Promise.reject(new Error('down'));

describe('circuit breaker', () => {
  it('opens after the threshold of failures in a row and then refuses at once, saying when to retry', async () => {
    const clock = manualClock();
    const breaker = createCircuitBreaker({ service: 'FCM', failureThreshold: 3, coolDownMs: 30_000, now: clock.now });
    let calls = 0;
    const failing = () => {
      calls++;
      return boom();
    };
    for (let i = 0; i < 3; i++) await expect(breaker.run(failing)).rejects.toThrow('down');
    expect(breaker.state()).toBe('open');
    clock.advance(12_000);
    const refused = await breaker.run(failing).catch((error) => error);
    expect(refused).toBeInstanceOf(CircuitOpenError);
    expect(refused.message).toBe('FCM is unavailable right now after repeated failures; retry in 18 s.');
    expect(calls).toBe(3);
  });

  it('a success in between starts the count again', async () => {
    const breaker = createCircuitBreaker({ service: 'X', failureThreshold: 2 });
    await expect(breaker.run(boom)).rejects.toThrow();
    await breaker.run(async () => 'ok');
    await expect(breaker.run(boom)).rejects.toThrow();
    expect(breaker.state()).toBe('closed');
  });

  it('does not count errors that say the service answered', async () => {
    const breaker = createCircuitBreaker({ service: 'X', failureThreshold: 1 });
    await expect(breaker.run(() => Promise.reject(new Error('400 refused')), { isFailure: () => false })).rejects.toThrow();
    expect(breaker.state()).toBe('closed');
  });

  it('after the cool-down lets exactly one probe through: success closes, failure opens again', async () => {
    const clock = manualClock();
    const breaker = createCircuitBreaker({ service: 'X', failureThreshold: 1, coolDownMs: 10_000, now: clock.now });
    await expect(breaker.run(boom)).rejects.toThrow('down');
    clock.advance(10_000);
    expect(breaker.state()).toBe('half-open');
    let release!: () => void;
    const probe = breaker.run(() => new Promise<string>((resolve) => (release = () => resolve('back'))));
    await expect(breaker.run(async () => 'second')).rejects.toBeInstanceOf(CircuitOpenError);
    release();
    expect(await probe).toBe('back');
    expect(breaker.state()).toBe('closed');

    await expect(breaker.run(boom)).rejects.toThrow('down');
    clock.advance(10_000);
    await expect(breaker.run(boom)).rejects.toThrow('down');
    expect(breaker.state()).toBe('open');
  });

  it('answers staff 503 with the retry time and a Retry-After header', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    app.get('/x', async () => {
      throw new CircuitOpenError('Vimeo', 25_400);
    });
    const response = await app.inject({ method: 'GET', url: '/x' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('26');
    expect(response.json()).toEqual({ message: 'Vimeo is unavailable right now after repeated failures; retry in 26 s.' });
    await app.close();
  });
});

describe('Vimeo client behind its breaker (stand-in)', () => {
  let standIn: Awaited<ReturnType<typeof startVimeoStandIn>> | undefined;
  afterEach(async () => standIn?.close());

  async function collect(pages: AsyncIterable<CataloguePage>) {
    const all: CataloguePage[] = [];
    for await (const page of pages) all.push(page);
    return all;
  }

  it('stops calling a failing Vimeo once the breaker opens, and calls again after the cool-down', async () => {
    let reply: () => StandInReply = () => ({ status: 503, body: { error: 'down' } });
    standIn = await startVimeoStandIn(() => reply());
    const clock = manualClock();
    const breaker = createCircuitBreaker({ service: 'Vimeo', failureThreshold: 3, coolDownMs: 30_000, now: clock.now });
    const client = createVimeoClient({ baseUrl: standIn.url, token: 't', userId: 'me', maxAttempts: 2, sleep: async () => undefined, now: clock.now, breaker });
    const signal = new AbortController().signal;

    await expect(collect(client.pages(signal))).rejects.toThrow('Vimeo failed 2 times in a row on page 1');
    await expect(collect(client.pages(signal))).rejects.toThrow(
      'Vimeo is unavailable right now after repeated failures; retry in 30 s. The sync stopped at page 1.',
    );
    expect(standIn.requests).toHaveLength(3);
    const third = await collect(client.pages(signal)).catch((error) => error);
    expect(third).toBeInstanceOf(VimeoError);
    expect(standIn.requests).toHaveLength(3);
    expect(() => client.checkAvailable!()).toThrow(CircuitOpenError);

    clock.advance(30_000);
    reply = () => ({ body: vimeoPage(1, 1, 2, [vimeoVideo(1, 'Back')], 1) });
    const pages = await collect(client.pages(signal));
    expect(pages[0]!.videos.map((video) => video.title)).toEqual(['Back']);
    expect(breaker.state()).toBe('closed');
  });

  it('counts pages that are not JSON against Vimeo', async () => {
    standIn = await startVimeoStandIn(() => ({ body: '<html>maintenance</html>' }));
    const breaker = createCircuitBreaker({ service: 'Vimeo', failureThreshold: 1 });
    const client = createVimeoClient({ baseUrl: standIn.url, token: 't', userId: 'me', sleep: async () => undefined, breaker });
    await expect(collect(client.pages(new AbortController().signal))).rejects.toThrow('Vimeo sent page 1 as something other than JSON');
    expect(breaker.state()).toBe('open');
  });
});

describe('Mindbody client: failures end within their bound, with a clear error (stand-in)', () => {
  let standIn: MindbodyStandIn;
  const waits: number[] = [];
  afterEach(async () => {
    waits.length = 0;
    await standIn?.close();
  });
  const client = (options: HttpClientOptions = {}) =>
    createMindbodyClient(
      { apiUrl: standIn.url, apiKey: STAND_IN.apiKey, siteIds: [STAND_IN.siteId], staffUsername: STAND_IN.username, staffPassword: STAND_IN.password },
      { sleep: async (ms) => void waits.push(ms), ...options },
    );

  it('reports a body that is not JSON as malformed, without retrying it', async () => {
    standIn = await startMindbodyStandIn({ contracts: { '42': [] } });
    standIn.fail({ path: '/client/clientcontracts', malformed: true, times: 1 });
    const failure = await client()
      .getClientContracts(-99, '42')
      .catch((error) => error);
    expect(failure).toBeInstanceOf(MindbodyError);
    expect(failure).toMatchObject({ kind: 'malformed', message: 'Mindbody answered GET /client/clientcontracts with something that is not JSON' });
    expect(standIn.calls('/client/clientcontracts')).toHaveLength(1);
  });

  it('waits out 429s as Retry-After says, then gives up with rate_limited', async () => {
    standIn = await startMindbodyStandIn({ contracts: { '42': [] } });
    standIn.fail({ path: '/client/clientcontracts', status: 429, retryAfter: '7', times: Infinity });
    const failure = await client({ maxAttempts: 3 })
      .getClientContracts(-99, '42')
      .catch((error) => error);
    expect(failure).toMatchObject({ kind: 'rate_limited', status: 429 });
    expect(failure.message).toContain('Mindbody rate limit reached (429)');
    expect(waits).toEqual([7000, 7000]);
  });

  it('abandons a call that never answers after its timeout, on every attempt', async () => {
    standIn = await startMindbodyStandIn({ contracts: { '42': [] } });
    standIn.fail({ path: '/client/clientcontracts', hang: true, times: Infinity });
    const failure = await client({ maxAttempts: 2, timeoutMs: 150 })
      .getClientContracts(-99, '42')
      .catch((error) => error);
    expect(failure).toMatchObject({ kind: 'timeout', message: 'Mindbody did not answer GET /client/clientcontracts within 0.15 s' });
    expect(standIn.calls('/client/clientcontracts')).toHaveLength(2);
  });

  it('opens its breaker after repeated 5xx: later calls fail at once without reaching Mindbody', async () => {
    standIn = await startMindbodyStandIn({ contracts: { '42': [] } });
    standIn.fail({ path: '/client/clientcontracts', status: 502, times: Infinity });
    const breaker = createCircuitBreaker({ service: 'Mindbody', failureThreshold: 3, coolDownMs: 60_000 });
    const mindbody = client({ maxAttempts: 2, breaker });
    await expect(mindbody.getClientContracts(-99, '42')).rejects.toMatchObject({ kind: 'server' });
    const second = await mindbody.getClientContracts(-99, '42').catch((error) => error);
    expect(second).toMatchObject({ kind: 'unavailable' });
    expect(second.message).toBe('Mindbody is unavailable right now after repeated failures; retry in 60 s.');
    const third = await mindbody.getClientContracts(-99, '42').catch((error) => error);
    expect(third).toMatchObject({ kind: 'unavailable' });
    expect(standIn.calls('/client/clientcontracts')).toHaveLength(3);
  });

  it('does not count 429s or refusals against Mindbody', async () => {
    standIn = await startMindbodyStandIn({ contracts: { '42': [] } });
    standIn.fail({ path: '/client/clientcontracts', status: 429, times: 4 });
    const breaker = createCircuitBreaker({ service: 'Mindbody', failureThreshold: 2 });
    expect(await client({ maxAttempts: 5, breaker }).getClientContracts(-99, '42')).toEqual([]);
    expect(breaker.state()).toBe('closed');
  });
});

describe('identity provider behind its breaker', () => {
  it('after three failed discoveries the login page says when to try again, without calling the provider', async () => {
    const { createTestApp } = await import('../support/server');
    const { openDatabase } = await import('../../server/src/db/client');
    const http = await import('node:http');
    let discoveries = 0;
    const provider = http.createServer((_req, res) => {
      discoveries++;
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(provider.address() as { port: number }).port}`;
    const database = await openDatabase({ dataDir: 'memory://' });
    const app = await createTestApp(database, {
      env: { OIDC_ISSUER_URL: issuer, OIDC_CLIENT_ID: 'console', OIDC_CLIENT_SECRET: 'secret', OIDC_ALLOWED_DOMAINS: 'studio.test' },
    });
    try {
      for (let i = 0; i < 3; i++) {
        const response = await app.inject({ method: 'GET', url: '/login' });
        expect(response.statusCode).toBe(503);
        expect(response.body).toContain('Try again in a minute.');
      }
      const refused = await app.inject({ method: 'GET', url: '/login' });
      expect(refused.statusCode).toBe(503);
      expect(refused.body).toMatch(/The identity provider cannot be reached right now. Try again in \d+ s\./);
      expect(discoveries).toBe(3);
    } finally {
      await app.close();
      await database.close();
      provider.close();
    }
  });
});

describe('starting an import while Mindbody is known to be down', () => {
  it('answers 503 with the retry time instead of queueing it', async () => {
    const { createTestApp, signIn } = await import('../support/server');
    const { openDatabase } = await import('../../server/src/db/client');
    const standIn = await startMindbodyStandIn({ contracts: { '42': [] } });
    standIn.fail({ path: '/client/clientcontracts', status: 500, times: Infinity });
    const breaker = createCircuitBreaker({ service: 'Mindbody', failureThreshold: 1, coolDownMs: 45_000, now: () => 1_000_000 });
    const mindbody = createMindbodyClient(
      { apiUrl: standIn.url, apiKey: STAND_IN.apiKey, siteIds: [STAND_IN.siteId], staffUsername: STAND_IN.username, staffPassword: STAND_IN.password },
      { maxAttempts: 1, breaker },
    );
    const database = await openDatabase({ dataDir: 'memory://' });
    const app = await createTestApp(database, { mindbody });
    try {
      const cookie = await signIn(app);
      await expect(mindbody.getClientContracts(-99, '42')).rejects.toMatchObject({ kind: 'server' });
      const response = await app.inject({ method: 'POST', url: '/api/admin/v1/mindbody/sync', headers: { cookie }, payload: {} });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('45');
      expect(response.json()).toEqual({ message: 'Mindbody is unavailable right now after repeated failures; retry in 45 s.' });
      const [{ n }] = await database.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE queue LIKE 'mindbody%'");
      expect(n).toBe(0);
    } finally {
      await app.close();
      await database.close();
      await standIn.close();
    }
  });
});
