import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInRequest {
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
}

export interface StandInReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Never answer (a hung upstream). */
  hang?: boolean;
}

/** A local stand-in for api.vimeo.com: node:http on 127.0.0.1, a random port, replies scripted per test. */
export async function startVimeoStandIn(reply: (request: StandInRequest, index: number) => StandInReply) {
  const requests: StandInRequest[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const request = { path: url.pathname, query: url.searchParams, headers: req.headers };
    requests.push(request);
    const answer = reply(request, requests.length - 1);
    if (answer.hang) return;
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/vnd.vimeo.video+json', ...answer.headers });
    res.end(answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A Vimeo video object as the API sends it (only what the sync reads, plus some noise). */
export function vimeoVideo(id: number, name: string, extra: Record<string, unknown> = {}) {
  return {
    uri: `/videos/${id}`,
    name,
    duration: 600,
    link: `https://vimeo.com/${id}`,
    pictures: {
      active: true,
      sizes: [
        { width: 100, height: 75, link: `https://i.vimeocdn.com/video/${id}_100x75` },
        { width: 295, height: 166, link: `https://i.vimeocdn.com/video/${id}_295x166` },
        { width: 640, height: 360, link: `https://i.vimeocdn.com/video/${id}_640x360` },
      ],
    },
    tags: [{ name: 'Yoga', canonical: 'yoga' }],
    categories: [],
    ...extra,
  };
}

/** The collection envelope: `paging.next` relative to the API root, null on the last page. */
export function vimeoPage(page: number, pages: number, perPage: number, data: unknown[], total: number, path = '/me/videos') {
  return {
    total,
    page,
    per_page: perPage,
    paging: {
      next: page < pages ? `${path}?page=${page + 1}&per_page=${perPage}` : null,
      previous: page > 1 ? `${path}?page=${page - 1}&per_page=${perPage}` : null,
      first: `${path}?page=1&per_page=${perPage}`,
      last: `${path}?page=${pages}&per_page=${perPage}`,
    },
    data,
  };
}
