import { describe, expect, it, vi } from 'vitest';
import { withEarlyGets, type HttpClient, type HttpResponse } from '../../src/providers/http';

const answering = () => {
  let served = 0;
  const http = vi.fn<HttpClient>(async (path) => ({ status: 200, headers: new Headers(), body: '', json: { path, served: ++served } }) as HttpResponse);
  return http;
};

describe('GETs started early', () => {
  it('hands an early answer to the first identical GET only; later and other calls ask the server', async () => {
    const server = answering();
    const { http, recorder } = withEarlyGets(server);
    await recorder('/api/client/v1/clients/1?page=1');
    expect(server).toHaveBeenCalledTimes(1);

    expect((await http('/api/client/v1/clients/1?page=1')).json).toEqual({ path: '/api/client/v1/clients/1?page=1', served: 1 });
    expect(server).toHaveBeenCalledTimes(1);
    expect((await http('/api/client/v1/clients/1?page=1')).json).toMatchObject({ served: 2 });
    expect((await http('/api/client/v1/clients/1?page=2')).json).toMatchObject({ served: 3 });
  });

  it('never answers a write with a kept GET, and starts no write early', async () => {
    const server = answering();
    const { http, recorder } = withEarlyGets(server);
    await recorder('/api/things');
    await http('/api/things', { method: 'POST', body: '{}' });
    expect(server).toHaveBeenLastCalledWith('/api/things', { method: 'POST', body: '{}' });
    await expect(recorder('/api/things', { method: 'DELETE' })).rejects.toThrow('Only GETs start early, not DELETE /api/things');
  });

  it('asks again when the early answer is older than 15 s, and passes an early failure to its taker', async () => {
    let now = 0;
    const server = answering();
    const { http, recorder } = withEarlyGets(server, () => now);
    await recorder('/a');
    now = 15_001;
    expect((await http('/a')).json).toMatchObject({ served: 2 });

    const failing = withEarlyGets(vi.fn<HttpClient>(() => Promise.reject(Object.assign(new Error('Unauthorized'), { status: 401 }))));
    void failing.recorder('/b').catch(() => undefined);
    await expect(failing.http('/b')).rejects.toMatchObject({ status: 401 });
  });
});
