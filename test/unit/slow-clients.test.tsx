import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import express from 'express';
import { Suspense, use } from 'react';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_PENDING_ANSWERS } from '../../server/lifecycle/http-server.ts';
import { createLogger } from '../../server/observability/logger.ts';
import { defineRoute, type PageProps } from '../../shared/api/route-definition.ts';
import { buildApp, delay, errorLines, type LogLine } from '../support/build-app.ts';
import { closeTestServers, listenForTest } from '../support/http-client.ts';
import { openRawConnection, splitResponses } from '../support/raw-http.ts';

const folders: string[] = [];
afterEach(async () => {
  await closeTestServers();
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** The server's own logger, writing into the app's captured lines. */
function serverLogger(logs: LogLine[]) {
  return createLogger({ level: 'debug', destination: { write: (line: string) => logs.push(JSON.parse(line)) } });
}

/** The heap after a full collection, so two readings compare what is retained, not garbage. */
function retainedHeap(): number {
  setFlagsFromString('--expose-gc');
  const collect: unknown = runInNewContext('gc');
  if (typeof collect !== 'function') throw new Error('gc is not available');
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/** A client build of one 512 KiB file: 32 answers (16 MiB) are more than loopback's socket buffers hold. */
async function bigAssetFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pipeline-assets-'));
  folders.push(dir);
  await writeFile(join(dir, 'app.js'), `// ${'x'.repeat(512 * 1024)}\n`);
  return dir;
}

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

/** A value that never comes: its boundary stays pending until the render timeout. */
const NEVER = new Promise<never>(() => undefined);

function Never(): null {
  use(NEVER);
  return null;
}

/** The huge shell, and a boundary that never resolves: React is still streaming when the client stops reading. */
function HugePendingPage(props: PageProps) {
  return (
    <>
      <HugePage {...props} />
      <Suspense fallback={<p>PENDING</p>}>
        <Never />
      </Suspense>
    </>
  );
}

describe('slow clients', () => {
  test('a client sending its headers a byte at a time is cut off by the headers timeout', async () => {
    const { app } = buildApp([]);
    const { server, port } = await listenForTest(app, { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, connectionsCheckingIntervalMs: 100 });
    const request = `GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'a'.repeat(100)}`;

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
    const { app, logs } = buildApp([{ path: '/huge', component: HugePage }], { pages: { renderTimeoutMs: 500 } });
    const { server, port } = await listenForTest(app);
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

  test('a client that stops reading while a boundary is still pending is cut at the render timeout, as stalled', async () => {
    const { app, logs } = buildApp([{ path: '/huge-pending', component: HugePendingPage }], { pages: { renderTimeoutMs: 500 } });
    const { server, port } = await listenForTest(app);
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('GET /huge-pending HTTP/1.1\r\nHost: localhost\r\nUser-Agent: Mozilla/5.0 Chrome/140\r\n\r\n');
      socket.pause();
    });
    socket.on('error', () => undefined);
    await settled(async () => (await openConnections(server)) === 1);
    const started = performance.now();
    await settled(async () => (await openConnections(server)) === 0);
    socket.destroy();
    // Cut by the render timeout (500 ms), not left to the delivery deadline (10 s by default).
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(logs.find((line) => line.msg === 'render timed out')).toMatchObject({ route: '/huge-pending', clientStalled: true });
    expect(errorLines(logs)).toEqual([]);
  });

  test('a client that pipelines and never reads gets at most the bound served, and is closed by the delivery deadline', async () => {
    const dir = await bigAssetFolder();
    const { app, logs } = buildApp([], { assets: { dir, routes: new Map(), inlineStyles: new Map() } });
    const deliveryTimeoutMs = 1_500;
    const { server, port } = await listenForTest(app, { deliveryTimeoutMs, logger: serverLogger(logs) });
    const serverSide = new Promise<number>((resolve) => {
      server.once('connection', (socket: Socket) => {
        const accepted = performance.now();
        socket.once('close', () => resolve(performance.now() - accepted));
      });
    });
    const heapBefore = retainedHeap();

    const connection = await openRawConnection(port);
    connection.stopReading();
    connection.write('GET /assets/app.js HTTP/1.1\r\nHost: localhost\r\n\r\n'.repeat(1_500));
    await delay(500);
    // Before the bound, ~1,300 answers were queued here, about 13 MB of heap, and held for ever. Now
    // 32 answers, and the requests Node parsed from the same read before the connection stopped reading.
    const heapWhileHeld = retainedHeap() - heapBefore;
    // The client reads nothing, so only the server's side can tell when the connection closed.
    const closedAfterMs = await Promise.race([serverSide, delay(deliveryTimeoutMs + 2_000).then(() => Number.POSITIVE_INFINITY)]);
    connection.destroy();

    expect(closedAfterMs).toBeGreaterThan(deliveryTimeoutMs - 100);
    expect(closedAfterMs).toBeLessThan(deliveryTimeoutMs + 1_000);
    expect(heapWhileHeld).toBeLessThan(6 * 1024 * 1024);
    const served = logs.filter((line) => line.path === '/assets/app.js');
    expect(served.length).toBeGreaterThan(0);
    expect(served.length).toBeLessThanOrEqual(MAX_PENDING_ANSWERS);
    expect(logs.some((line) => line.msg === 'answer not delivered in time: connection closed')).toBe(true);
    await settled(async () => (await openConnections(server)) === 0);
    expect(errorLines(logs)).toEqual([]);
  });
});

describe('an answer queued behind one that never comes', () => {
  test('is cut at the delivery deadline, with its connection, though it is not finished either', async () => {
    // An app route that never answers: an answer still being produced is its producer's to bound,
    // but the second one, which waits behind the first with no socket, can never be sent.
    const built = buildApp([], {
      middleware: (router) => {
        router.get('/never', () => undefined);
      },
    });
    const deliveryTimeoutMs = 500;
    const { server, port } = await listenForTest(built.app, { deliveryTimeoutMs, logger: serverLogger(built.logs) });
    const connection = await openRawConnection(port);
    connection.write('GET /never HTTP/1.1\r\nHost: localhost\r\n\r\n'.repeat(2));
    const closedAfterMs = await connection.closedWithin(deliveryTimeoutMs + 2_000);
    expect(closedAfterMs).toBeGreaterThan(deliveryTimeoutMs - 100);
    expect(closedAfterMs).toBeLessThan(deliveryTimeoutMs + 1_500);
    expect(connection.received()).toBe('');
    expect(built.logs.find((line) => line.msg === 'answer not delivered in time: connection closed')).toMatchObject({ deadlineMs: deliveryTimeoutMs });
    await settled(async () => (await openConnections(server)) === 0);
  });
});

describe('a request body that does not arrive by the request deadline', () => {
  /** A page with an action that records what it was posted: it must never run on a body that never came. */
  function postingApp() {
    const posted: unknown[] = [];
    const built = buildApp(
      [
        defineRoute({
          path: '/post',
          component: () => <h1>Post</h1>,
          action: ({ body }) => {
            posted.push(body);
            return { saved: true };
          },
        }),
      ],
      { telemetry: { enabled: true } },
    );
    return { ...built, posted };
  }

  test("an app's own route that reads the body its own way: no answer can come, so the connection closes", async () => {
    const built = buildApp([], {
      middleware: (router) => {
        router.post('/hook', express.json(), (_req, res) => {
          res.json({ ok: true });
        });
      },
    });
    const { server, port } = await listenForTest(built.app, { headersTimeoutMs: 500, requestTimeoutMs: 1_000, logger: serverLogger(built.logs) });
    const connection = await openRawConnection(port);
    connection.write('POST /hook HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
    // Before, the socket stayed open for as long as the client kept it.
    expect(await connection.closedWithin(4_000)).toBeLessThan(2_500);
    expect(connection.received()).toBe('');
    await settled(async () => (await openConnections(server)) === 0);
    expect(built.logs.find((line) => line.msg === 'request body not received in time')).toBeDefined();
    expect(errorLines(built.logs)).toEqual([]);
  });

  /**
   * Posts a head declaring 100 bytes, and the body one byte every 200 ms (it would take 20 s),
   * to a server whose request deadline is 1 s, checked at the default interval.
   */
  async function trickle(path: string, contentType: string, body: string) {
    const built = postingApp();
    const { server, port } = await listenForTest(built.app, { headersTimeoutMs: 500, requestTimeoutMs: 1_000, logger: serverLogger(built.logs) });
    const connection = await openRawConnection(port);
    connection.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: same-origin\r\nContent-Type: ${contentType}\r\nContent-Length: 100\r\n\r\n`);
    let sent = 0;
    const drip = setInterval(() => connection.write(body[sent++ % body.length] ?? 'a'), 200);
    const closedAfterMs = await connection.closedWithin(4_000);
    clearInterval(drip);
    connection.destroy();
    await settled(async () => (await openConnections(server)) === 0);
    return { ...built, closedAfterMs, responses: splitResponses(connection.received()) };
  }

  test.each([
    ['a form post', '/post', 'application/x-www-form-urlencoded', 'name=Ada&message=hello'],
    ['a JSON action post', '/post', 'application/json', '{"name":"Ada","message":"hello"}'],
    ['a telemetry report', '/_telemetry/vitals', 'application/json', '{"name":"LCP","value":1}'],
  ])('%s trickled past it gets one answer, the 408 page, and its connection closes: nothing runs on it', async (_kind, path, type, body) => {
    const { responses, closedAfterMs, posted, logs } = await trickle(path, type, body);
    // Before, nothing answered: the 408 waited behind the answer owed to the request, which waited for its body.
    expect(closedAfterMs).toBeLessThan(2_500);
    expect(responses.map((response) => response.status)).toEqual([408]);
    expect(responses[0]?.head).toMatch(/\r\nConnection: close(\r\n|$)/i);
    expect(responses[0]?.head).toMatch(/\r\nContent-Security-Policy: /i);
    expect(responses[0]?.body).toContain('<title>408: Request Timeout.</title>');
    expect(posted).toEqual([]);
    const reqId = /\r\nX-Request-Id: ([^\r]+)/i.exec(responses[0]?.head ?? '')?.[1];
    expect(logs.find((line) => line.msg === 'request body not received in time')).toMatchObject({ reqId });
    expect(logs.filter((line) => line.reqId === reqId && line.status === 408)).toHaveLength(1);
    expect(errorLines(logs)).toEqual([]);
  });
});
