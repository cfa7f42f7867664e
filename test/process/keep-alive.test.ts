import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULTS } from '../../server/config.ts';
import { startServerProcess, type ServerProcess } from '../support/proxy-harness.ts';

const running: ServerProcess[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One TCP connection, kept open between requests, so reuse is certain (no agent's pool). */
interface Connection {
  /** Sends `GET /healthz` and resolves with the answer's head once its body has arrived. */
  get(): Promise<string>;
  /** Resolves with the time the server closed the connection. */
  readonly closed: Promise<number>;
}

function openConnection(port: number): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let received = '';
    let waiting: ((head: string) => void) | undefined;
    const closed = new Promise<number>((resolveClosed) => socket.once('close', () => resolveClosed(performance.now())));
    socket.setEncoding('latin1');
    socket.on('data', function collect(text: string) {
      received += text;
      const end = received.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(received)?.[1];
      if (end === -1 || length === undefined || received.length < end + 4 + Number(length)) return;
      const head = received.slice(0, end);
      received = received.slice(end + 4 + Number(length));
      waiting?.(head);
    });
    socket.once('error', reject);
    socket.once('connect', () =>
      resolve({
        get() {
          return new Promise<string>((resolveHead, rejectHead) => {
            waiting = resolveHead;
            socket.once('close', () => rejectHead(new Error('connection closed before the answer')));
            socket.write('GET /healthz HTTP/1.1\r\nHost: keep-alive.test\r\n\r\n');
          });
        },
        closed,
      }),
    );
  });
}

describe('keep-alive', () => {
  test(`the real server advertises the default: Keep-Alive: timeout=${DEFAULTS.keepAliveTimeoutMs / 1000}`, async () => {
    const server = await startServerProcess();
    running.push(server);
    const res = await fetch(`${server.origin}/healthz`);
    expect(res.headers.get('connection')).toBe('keep-alive');
    expect(res.headers.get('keep-alive')).toBe('timeout=65');
    expect(DEFAULTS.keepAliveTimeoutMs).toBe(65_000);
  });

  test('an idle connection is reused after most of the keep-alive timeout, and closed by the server after it', async () => {
    // Scaled down from the default (reuse after 60 s of a 65 s timeout) to keep the test short.
    const server = await startServerProcess({ KEEP_ALIVE_TIMEOUT_MS: '1500' });
    running.push(server);
    const connection = await openConnection(server.port);
    expect(await connection.get()).toMatch(/^HTTP\/1\.1 200 [\s\S]*keep-alive: timeout=1\r?$/im);
    await sleep(1_200);
    const idleSince = performance.now();
    expect(await connection.get()).toMatch(/^HTTP\/1\.1 200 /);
    const closedAfter = (await connection.closed) - idleSince;
    // The server closes an idle connection itself, after the advertised timeout, never before.
    expect(closedAfter).toBeGreaterThanOrEqual(1_450);
    expect(closedAfter).toBeLessThan(5_000);
  });

  // The full-length case with the real defaults: a minute of waiting, run every time.
  test('with the defaults, an idle connection is reused after 60 s', async () => {
    const server = await startServerProcess();
    running.push(server);
    const connection = await openConnection(server.port);
    await connection.get();
    await sleep(60_000);
    expect(await connection.get()).toMatch(/^HTTP\/1\.1 200 /);
  }, 75_000);
});
