export {};

/**
 * The second process of the crash test (tests/server/crash.test.ts): streams writes at a running
 * server and prints one JSON line per write the server acknowledged (2xx), and only then. Stops
 * when the server stops answering (it was killed). Usage: node --import tsx crashWriter.ts <url> <cookie> <round> <json config>
 */
const [url, cookie, round, configText] = process.argv.slice(2) as [string, string, string, string];
const { messageIds, videoIds } = JSON.parse(configText) as { messageIds: number[]; videoIds: number[] };

const ack = (line: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ round: Number(round), ...line })}\n`);

async function send(method: string, path: string, body: unknown): Promise<boolean> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
  return true;
}

/** One stream of writes; each waits for its answer before the next, as a staff member's clicks do. */
async function stream(kind: string, write: (n: number) => Promise<Record<string, unknown>>) {
  for (let n = 0; ; n++) {
    try {
      ack({ kind, n, ...(await write(n)) });
    } catch (error) {
      const refused = (error as { cause?: { code?: string } }).cause?.code;
      // The server died under us: that is the point of the test, not a failure of the stream.
      if (refused || (error as Error).name === 'TimeoutError' || /fetch failed|terminated|other side closed/.test(String(error))) return;
      process.stderr.write(`${kind} ${n}: ${(error as Error).message}\n`);
      process.exitCode = 2;
      return;
    }
  }
}

await Promise.all([
  stream('add', async (n) => {
    const title = `crash r${round} add ${n}`;
    await send('POST', '/api/client/v1/messaging/add-new', { title, message: 'streamed', enabled: true, message_type: 3 });
    return { title };
  }),
  stream('edit', async (n) => {
    const id = messageIds[n % messageIds.length]!;
    const title = `crash r${round} edit ${String(n).padStart(6, '0')}`;
    await send('POST', '/api/client/v1/messaging/update', { id, title, message: 'edited', enabled: n % 2 === 0 });
    return { id, title };
  }),
  stream('video', async (n) => {
    const id = videoIds[n % videoIds.length]!;
    const title = `crash r${round} video ${String(n).padStart(6, '0')}`;
    await send('PUT', `/api/admin/v1/videos/${id}`, { title });
    return { id, title };
  }),
]);
