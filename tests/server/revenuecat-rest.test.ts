import { describe, expect, it } from 'vitest';
import { createRevenueCatClient } from '../../server/src/integrations/revenuecat/rest';

/** RevenueCat's documented answers to DELETE /v1/subscribers/{app_user_id}, from a stand-in fetch. */
function standIn(answers: { status: number; body?: unknown }[]) {
  const calls: { url: string; method?: string; authorization?: string }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, method: init.method, authorization: new Headers(init.headers).get('authorization') ?? undefined });
    const answer = answers.shift() ?? { status: 200 };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status });
  }) as typeof globalThis.fetch;
  return { calls, client: createRevenueCatClient({ apiUrl: 'https://api.revenuecat.test/v1/', secretKey: 'sk_test', fetch }) };
}

describe('the RevenueCat REST client', () => {
  it('deletes a subscriber with the secret key, the id escaped', async () => {
    const { calls, client } = standIn([{ status: 200, body: { app_user_id: 'a/b c' } }]);
    await client.deleteSubscriber('a/b c');
    expect(calls).toEqual([{ url: 'https://api.revenuecat.test/v1/subscribers/a%2Fb%20c', method: 'DELETE', authorization: 'Bearer sk_test' }]);
  });

  it('counts a subscriber RevenueCat does not know as deleted', async () => {
    const { client } = standIn([{ status: 404, body: { code: 7259, message: 'Subscriber not found.' } }]);
    await expect(client.deleteSubscriber('gone')).resolves.toBeUndefined();
  });

  it("refuses at once with RevenueCat's own message when the key is wrong", async () => {
    const { calls, client } = standIn([{ status: 401, body: { code: 7225, message: 'Invalid API key.' } }]);
    await expect(client.deleteSubscriber('x')).rejects.toThrow('RevenueCat answered 401: Invalid API key.');
    expect(calls).toHaveLength(1);
  });
});
