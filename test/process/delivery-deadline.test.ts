import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { openRawConnection, type RawConnection } from '../support/raw-http.ts';
import { startServerProcess, type ServerProcess } from '../support/proxy-harness.ts';
import { waitFor } from '../support/build-app.ts';
import { FIXTURE_CLIENT_DIR } from '../support/fixture-server-build.ts';

const running: ServerProcess[] = [];
const connections: RawConnection[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const connection of connections.splice(0)) connection.destroy();
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

/** The largest built client file the fixture server serves (its own client build): its answers fill the socket's buffers fast. */
function largestAsset(): string {
  const dir = join(FIXTURE_CLIENT_DIR, 'assets');
  const files = readdirSync(dir).filter((name) => name.endsWith('.js'));
  const largest = files.sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
  if (largest === undefined) throw new Error(`no built client in ${dir} (run npm run build)`);
  return `/assets/${largest}`;
}

describe('the delivery deadline of the real server', () => {
  test('follows RENDER_TIMEOUT_MS: a client that pipelines and never reads is cut off after it, not after the default', async () => {
    const renderTimeoutMs = 1_500;
    const server = await startServerProcess({ RENDER_TIMEOUT_MS: String(renderTimeoutMs) });
    running.push(server);
    const connection = await openRawConnection(server.port);
    connections.push(connection);
    connection.stopReading();
    const sent = performance.now();
    connection.write(`GET ${largestAsset()} HTTP/1.1\r\nHost: localhost\r\n\r\n`.repeat(30));

    const closedLine = () => server.logs.find((line) => line.msg === 'answer not delivered in time: connection closed');
    // The default deadline (10 s) would leave this wait empty.
    await waitFor(() => closedLine() !== undefined, renderTimeoutMs + 3_000, 'the delivery deadline line');
    const line = closedLine();
    expect(line?.deadlineMs).toBe(renderTimeoutMs);
    expect(Number(line?.receivedAt) - sent).toBeLessThan(renderTimeoutMs + 1_500);
  });

  test('holds for answers the kernel took: 64 pipelined pages, all finished and never read, are reset after it', async () => {
    const renderTimeoutMs = 1_500;
    const server = await startServerProcess({ RENDER_TIMEOUT_MS: String(renderTimeoutMs) });
    running.push(server);
    const socket = connect(server.port, '127.0.0.1');
    sockets.push(socket);
    let reset = false;
    socket.on('error', (error: NodeJS.ErrnoException) => {
      reset ||= error.code === 'ECONNRESET';
    });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.pause();
    const sent = performance.now();
    const pages = 'GET / HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\nUser-Agent: Mozilla/5.0 Chrome/140\r\n\r\n'.repeat(32);
    const completed = () => server.logs.filter((line) => line.msg === 'request completed' && line.path === '/');
    // Two batches of the 32 a connection may be owed: about 320 KB, more than the client's kernel takes, less than both kernels hold.
    socket.write(pages);
    await waitFor(() => completed().length === 32, 2_000, 'the first 32 pages');
    socket.write(pages);

    const cutLines = () => server.logs.filter((line) => line.msg === 'answer not delivered in time: connection closed');
    await waitFor(() => cutLines().length > 0, renderTimeoutMs + 3_000, 'the delivery deadline line');
    // Node finished every answer: only the kernel's send queue knew the client had not taken them.
    expect(completed()).toHaveLength(64);
    const line = cutLines()[0];
    expect(line).toMatchObject({ status: 200, deadlineMs: renderTimeoutMs });
    expect(Number(line?.receivedAt) - sent).toBeGreaterThan(renderTimeoutMs - 100);
    expect(Number(line?.receivedAt) - sent).toBeLessThan(renderTimeoutMs + 1_500);
    // Reset, not closed behind the queued bytes: reading again, the client meets ECONNRESET, not the rest and a FIN.
    socket.resume();
    await closed;
    expect(reset).toBe(true);
    expect(cutLines()).toHaveLength(1);
  });
});
