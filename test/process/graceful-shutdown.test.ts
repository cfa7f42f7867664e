import { Agent, request } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/proxy-harness.ts';
import { DESKTOP_CHROME } from '../support/http-client.ts';

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
    await sleep(150);
    expect(await statusOf(`${server.origin}/readyz`)).toBe(503);
    const notReadyAt = performance.now() - signalledAt;
    expect(await statusOf(`${server.origin}/healthz`)).toBe(200);
    // After the delay nothing new gets in, while the stream goes on.
    await sleep(650);
    expect(await statusOf(`${server.origin}/healthz`)).toBe(0);

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
    server.child.kill('SIGTERM');
    await sleep(150);
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
    const page = get(`${server.origin}/fixtures/slow?ms=20000`);
    // Observed at once, so the expected failure is never an unhandled rejection.
    const outcome = page.done.then(
      () => 'completed',
      () => 'cut',
    );
    await page.firstBytes;
    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    const took = performance.now() - signalledAt;
    expect(exit).toEqual({ code: 1, signal: null });
    expect(took).toBeGreaterThanOrEqual(500);
    expect(took).toBeLessThan(3_000);
    expect(await outcome).toBe('cut');
    expect(server.logs.map((line) => line.msg)).toContain('shutdown deadline passed: open connections cut');
    process.stdout.write(`shutdown past the deadline (delay 200 ms + deadline 300 ms): exit 1 at ${Math.round(took)} ms after SIGTERM\n`);
  });

  test.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('a second signal (%s) exits at once with %i', async (second, code) => {
    const server = await start({ SHUTDOWN_DELAY_MS: '30000' });
    server.child.kill('SIGTERM');
    await sleep(200);
    expect(await statusOf(`${server.origin}/readyz`)).toBe(503);
    const signalledAt = performance.now();
    server.child.kill(second);
    expect(await server.exited).toEqual({ code, signal: null });
    expect(performance.now() - signalledAt).toBeLessThan(1_000);
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
