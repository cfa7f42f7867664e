import { connect } from 'node:net';
import type { Server } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import type { PageProps } from '../../shared/route-definition.ts';
import { buildApp, delay, errorLines } from '../support/build-app.ts';
import { close, listen } from '../support/http-client.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(close));
});

function openConnections(server: Server): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

/** Polls an asynchronous condition until it holds; fails after two seconds. */
async function settled(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 40; i += 1) {
    if (await check()) return;
    await delay(50);
  }
  throw new Error('condition did not hold within 2 s');
}

function pendingTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

/** Far more than loopback socket buffers hold, so an unread response must stall. */
function HugePage(_props: PageProps) {
  return <pre>{'x'.repeat(16 * 1024 * 1024)}</pre>;
}

describe('slow clients', () => {
  test('a client sending its headers a byte at a time is cut off by the headers timeout', async () => {
    const { app } = buildApp([]);
    const { server, origin } = await listen(app, { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, connectionsCheckingIntervalMs: 100 });
    servers.push(server);
    const port = Number(new URL(origin).port);
    const request = 'GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ' + 'a'.repeat(100);

    const started = performance.now();
    const outcome = await new Promise<{ answer: string; closedAfterMs: number }>((resolve) => {
      let answer = '';
      const socket = connect(port, '127.0.0.1');
      let sent = 0;
      const drip = setInterval(() => {
        if (sent < request.length && socket.writable) socket.write(request[sent++] ?? '');
      }, 250);
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(drip);
        resolve({ answer, closedAfterMs: performance.now() - started });
      });
    });
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    expect(outcome.closedAfterMs).toBeLessThan(3_000);
    await settled(async () => (await openConnections(server)) === 0);
  });

  test('a client that stops reading a streamed page does not hold the render or the socket', async () => {
    const { app, logs } = buildApp([{ path: '/huge', component: HugePage }], { renderTimeoutMs: 500 });
    const { server, origin } = await listen(app);
    servers.push(server);
    const port = Number(new URL(origin).port);
    const timersBefore = pendingTimers();

    const socket = connect(port, '127.0.0.1', () => {
      socket.write('GET /huge HTTP/1.1\r\nHost: localhost\r\nUser-Agent: Mozilla/5.0 Chrome/140\r\n\r\n');
      // Never read: the server's writes fill the socket buffers and back-pressure stops React.
      socket.pause();
    });
    socket.on('error', () => undefined);

    await settled(async () => (await openConnections(server)) === 1);
    // The server's side closes although the client neither reads nor goes away.
    await settled(async () => (await openConnections(server)) === 0);
    socket.destroy();
    expect(logs.find((line) => line.msg === 'client stopped reading: connection closed')).toMatchObject({ route: '/huge' });
    expect(pendingTimers()).toBeLessThanOrEqual(timersBefore);
    expect(errorLines(logs)).toEqual([]);
  });
});
