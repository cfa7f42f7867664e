import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { waitFor } from '../support/build-app.ts';
import { DESKTOP_CHROME } from '../support/http-client.ts';
import { startServerProcess, type ServerProcess } from '../support/proxy-harness.ts';
import { startServerEntry } from '../support/server-process.ts';
import { freePort } from '../../scripts/lib/loopback.ts';
import { FIXTURE_MAIN_ENTRY } from '../support/fixture-server-build.ts';

const running: ServerProcess[] = [];
const agents: Agent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) agent.destroy();
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess(env);
  running.push(server);
  return server;
}

function keepAliveAgent(): Agent {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  return agent;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

interface Answer {
  readonly status: number;
  readonly connection: string | undefined;
  readonly body: string;
}

/** A request that resolves `firstBytes` when the shell arrives and `done` with the whole answer. */
function get(url: string, agent?: Agent) {
  let onFirstBytes: () => void = () => undefined;
  const firstBytes = new Promise<void>((resolve) => (onFirstBytes = resolve));
  const done = new Promise<Answer>((resolve, reject) => {
    const req = request(url, { headers: { 'User-Agent': DESKTOP_CHROME }, agent: agent ?? false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (body === '') onFirstBytes();
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  return { firstBytes, done };
}

/** Milliseconds from `since` until `holds()` is true, asked every 20 ms; fails after 5 s. */
async function msUntil(since: number, holds: () => Promise<boolean>): Promise<number> {
  while (!(await holds())) {
    if (performance.now() - since > 5_000) throw new Error('not within 5 s');
    await sleep(20);
  }
  return performance.now() - since;
}

/**
 * A 20 s page whose first bytes have arrived, with how it will end: observed at once, so that a
 * cut is never an unhandled rejection.
 */
async function slowPageUnderWay(origin: string): Promise<{ readonly outcome: Promise<'completed' | 'cut'> }> {
  const page = get(`${origin}/fixtures/slow?ms=20000`);
  const outcome = page.done.then(
    () => 'completed' as const,
    () => 'cut' as const,
  );
  await page.firstBytes;
  // In an object: an async function's promise would otherwise wait for this one too.
  return { outcome };
}

/** The status, or 0 when the connection is refused. */
async function statusOf(url: string): Promise<number> {
  try {
    return (await fetch(url)).status;
  } catch {
    return 0;
  }
}

describe('SIGTERM', () => {
  test('turns readiness to 503 first, waits the delay, stops accepting, lets the stream finish, exits 0', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '600' });
    const page = get(`${server.origin}/fixtures/slow?ms=1500`);
    await page.firstBytes;
    const signalledAt = performance.now();
    server.child.kill('SIGTERM');

    // During the delay the listener still accepts: alive, but not ready.
    const notReadyAt = await msUntil(signalledAt, async () => (await statusOf(`${server.origin}/readyz`)) === 503);
    expect(notReadyAt).toBeLessThan(600);
    expect(await statusOf(`${server.origin}/healthz`)).toBe(200);
    // After the delay, and not before, nothing new gets in, while the stream goes on.
    const refusedAt = await msUntil(signalledAt, async () => (await statusOf(`${server.origin}/healthz`)) === 0);
    expect(refusedAt).toBeGreaterThanOrEqual(600);

    const { status, body } = await page.done;
    const streamEndedAt = performance.now() - signalledAt;
    expect(status).toBe(200);
    expect(body).toContain('SLOW-BOUNDARY-CONTENT');
    expect(body.trimEnd().endsWith('</html>')).toBe(true);
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const exitedAt = performance.now() - signalledAt;
    expect(exitedAt).toBeGreaterThanOrEqual(600);
    const messages = server.logs.map((line) => line.msg);
    expect(messages).toEqual(expect.arrayContaining(['shutdown started', 'listener closed: finishing in-flight responses', 'shutdown complete']));
    process.stdout.write(
      `graceful shutdown (delay 600 ms, stream of 1500 ms): /readyz 503 by ${Math.round(notReadyAt)} ms, ` +
        `stream ended at ${Math.round(streamEndedAt)} ms, exit 0 at ${Math.round(exitedAt)} ms after SIGTERM\n`,
    );
  });

  test('answers with Connection: close once shutdown began, so clients move on before the listener closes', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '800' });
    const agent = keepAliveAgent();
    expect((await get(`${server.origin}/`, agent).done).connection).toBe('keep-alive');
    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    // Shutdown has begun once readiness says so (on its own connection, not the agent's).
    expect(await msUntil(signalledAt, async () => (await statusOf(`${server.origin}/readyz`)) === 503)).toBeLessThan(800);
    const during = await get(`${server.origin}/`, agent).done;
    expect(during.status).toBe(200);
    expect(during.connection).toBe('close');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  test('closes a keep-alive connection whose stream ends after the listener closed, instead of waiting for its timeout', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '0', SHUTDOWN_DEADLINE_MS: '20000' });
    const agent = keepAliveAgent();
    const page = get(`${server.origin}/fixtures/slow?ms=800`, agent);
    await page.firstBytes;
    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    expect((await page.done).body).toContain('SLOW-BOUNDARY-CONTENT');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    // Node would otherwise keep the idle socket for the 65 s keep-alive timeout, past the deadline.
    expect(performance.now() - signalledAt).toBeLessThan(2_000);
  });

  test('closes idle keep-alive connections at once', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '0' });
    const agent = keepAliveAgent();
    await get(`${server.origin}/`, agent).done;
    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(performance.now() - signalledAt).toBeLessThan(1_000);
  });

  test('past the deadline cuts what is left and exits 1', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '200', SHUTDOWN_DEADLINE_MS: '300', RENDER_TIMEOUT_MS: '60000' });
    const { outcome } = await slowPageUnderWay(server.origin);
    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    const took = performance.now() - signalledAt;
    expect(exit).toEqual({ code: 1, signal: null });
    expect(took).toBeGreaterThanOrEqual(500);
    expect(took).toBeLessThan(3_000);
    expect(await outcome).toBe('cut');
    expect(server.logs.map((line) => line.msg)).toContain('shutdown deadline passed: open connections cut');
    // The cut request has its line, before the last one: before, the exit came in the same tick as the cut, and it had none.
    const cut = server.logs.findIndex((line) => line.msg === 'request aborted' && line.path === '/fixtures/slow');
    expect(cut).toBeGreaterThan(-1);
    expect(cut).toBeLessThan(server.logs.findIndex((line) => line.msg === 'shutdown deadline passed: open connections cut'));
    process.stdout.write(`shutdown past the deadline (delay 200 ms + deadline 300 ms): exit 1 at ${Math.round(took)} ms after SIGTERM\n`);
  });

  test.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('a second signal (%s) exits at once with %i', async (second, code) => {
    const server = await start({ SHUTDOWN_DELAY_MS: '30000', RENDER_TIMEOUT_MS: '60000' });
    const { outcome } = await slowPageUnderWay(server.origin);
    const firstAt = performance.now();
    server.child.kill('SIGTERM');
    await msUntil(firstAt, async () => (await statusOf(`${server.origin}/readyz`)) === 503);
    const signalledAt = performance.now();
    server.child.kill(second);
    expect(await server.exited).toEqual({ code, signal: null });
    expect(performance.now() - signalledAt).toBeLessThan(1_000);
    expect(await outcome).toBe('cut');
    // The stream it cut is logged, as any request that ends.
    expect(server.logs.some((line) => line.msg === 'request aborted' && line.path === '/fixtures/slow')).toBe(true);
  });
});

describe('SIGINT', () => {
  test('shuts down the same way', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '100' });
    const signalledAt = performance.now();
    server.child.kill('SIGINT');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(performance.now() - signalledAt).toBeGreaterThanOrEqual(100);
    expect(server.logs.find((line) => line.msg === 'shutdown started')).toMatchObject({ signal: 'SIGINT' });
  });
});

describe('when the listener closes (the product entry, built around the fixture app)', () => {
  const LISTENER_CLOSED = 'listener closed: finishing in-flight responses';
  const sockets: Socket[] = [];
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy();
  });

  async function startMain(env: Record<string, string>): Promise<ServerProcess> {
    const server = await startServerEntry(FIXTURE_MAIN_ENTRY, { PORT: '0', HOST: '127.0.0.1', ...env });
    running.push(server);
    return server;
  }

  function open(port: number): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(socket));
      sockets.push(socket);
      socket.setEncoding('latin1');
      socket.once('error', reject);
    });
  }

  /** A keep-alive connection that has had one answer and sent nothing since; resolves when the server closes it. */
  async function idleKeepAlive(port: number): Promise<{ readonly closed: Promise<number> }> {
    const socket = await open(port);
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
    const head = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('\r\n\r\n') && text.endsWith('ok\n')) resolve(text);
      });
      socket.write('GET /healthz HTTP/1.1\r\nHost: shutdown.test\r\n\r\n');
    });
    expect(head).toMatch(/^connection: keep-alive\r?$/im);
    return { closed };
  }

  /**
   * A connection that has sent half a request: the server counts it in flight, so the process
   * stays up after the listener closed until `finish()` sends the rest and the answer ends.
   */
  async function halfRequest(port: number): Promise<{ finish(): Promise<string> }> {
    const socket = await open(port);
    let text = '';
    socket.on('data', (chunk: string) => (text += chunk));
    const ended = new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
    socket.write('GET /healthz HTTP/1.1\r\nHost: shutdown.test\r\n');
    await sleep(100);
    return {
      finish() {
        socket.write('\r\n');
        return ended;
      },
    };
  }

  test('closes keep-alive connections idle since before the signal as the listener closes, not when the process ends', async () => {
    const server = await startMain({ SHUTDOWN_DELAY_MS: '400' });
    const idle = await idleKeepAlive(server.port);
    const held = await halfRequest(server.port);
    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    const closedAt = await idle.closed;
    // Not during the delay (it could still send a request and hear Connection: close)…
    expect(closedAt - signalledAt).toBeGreaterThanOrEqual(380);
    // …but at once when the listener closes, while a request is still in flight.
    expect(closedAt - signalledAt).toBeLessThan(1_000);
    expect(server.child.exitCode).toBeNull();
    await waitFor(() => server.logs.some((line) => line.msg === LISTENER_CLOSED), 2_000, 'the listener closed line');
    const answer = await held.finish();
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/^connection: close\r?$/im);
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  test('the metrics listener closes with the public one', async () => {
    const metricsPort = await freePort();
    const server = await startMain({ METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' });
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    expect(await statusOf(metricsUrl)).toBe(200);
    const held = await halfRequest(server.port);
    server.child.kill('SIGTERM');
    await waitFor(() => server.logs.some((line) => line.msg === LISTENER_CLOSED), 5_000, 'the listener closed line');
    expect(await statusOf(`${server.origin}/healthz`)).toBe(0);
    expect(await statusOf(metricsUrl)).toBe(0);
    // Still finishing the request in flight: the metrics port closed with the listener, not at exit.
    expect(server.child.exitCode).toBeNull();
    expect(await held.finish()).toMatch(/^HTTP\/1\.1 200 /);
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});
