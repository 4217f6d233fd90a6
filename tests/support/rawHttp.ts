import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends one request with the request target exactly as given (percent forms, absolute form, dot
 * segments), as curl --path-as-is / --request-target would: http.request and fetch normalise some
 * of these before they reach the server.
 */
export function rawRequest(port: number, method: string, target: string, headers: Record<string, string> = {}, body = ''): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const lines = [`${method} ${target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close'];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    if (body || method === 'POST' || method === 'PUT' || method === 'PATCH') lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
    socket.on('connect', () => socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const head = text.slice(0, split).split('\r\n');
      const status = Number(head[0]!.split(' ')[1]);
      const parsed: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const colon = line.indexOf(':');
        parsed[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let rest = text.slice(split + 4);
      if (parsed['transfer-encoding'] === 'chunked') rest = dechunk(rest);
      resolve({ status, headers: parsed, body: rest });
    });
  });
}

function dechunk(text: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    if (lineEnd < 0) return out;
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!size) return out;
    out += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/** A built console in a temporary folder (index.html and one pre-compressed asset), as `npm run build` leaves it. */
export function fakeConsoleBuild(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sc-console-'));
  fs.mkdirSync(path.join(root, 'assets'));
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><html><head><title>Studio Console</title></head><body><div id="root"></div></body></html>');
  const script = 'console.log("studio console");'.repeat(100);
  fs.writeFileSync(path.join(root, 'assets', 'index-abc123.js'), script);
  fs.writeFileSync(path.join(root, 'assets', 'index-abc123.js.gz'), zlib.gzipSync(script));
  fs.writeFileSync(path.join(root, 'assets', 'index-abc123.js.br'), zlib.brotliCompressSync(script));
  return root;
}
