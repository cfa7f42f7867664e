import { request, Agent } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../browser/harness.ts';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const running: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

async function start(env: Record<string, string>): Promise<FixtureServer> {
  const server = await startFixtureServer(env);
  running.push(server);
  return server;
}

async function status(url: string): Promise<number> {
  try {
    return (await fetch(url)).status;
  } catch {
    return 0;
  }
}

/** A streamed page: resolves `shell` when the first bytes arrive and `done` with the whole body. */
function streamPage(url: string, agent?: Agent) {
  let onShell: () => void = () => undefined;
  const shell = new Promise<void>((resolve) => (onShell = resolve));
  const done = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { headers: { 'User-Agent': CHROME }, ...(agent ? { agent } : { agent: false }) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (body === '') onShell();
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  return { shell, done };
}

describe('SIGTERM', () => {
  test('turns readiness to 503 first, lets an in-flight stream finish, then exits 0', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '600', FIXTURE_DELAY_MS: '1500' });
    const page = streamPage(`${server.origin}/fixtures/delayed`);
    await page.shell;
    const signalledAt = performance.now();
    server.child.kill('SIGTERM');

    // During the delay the listener still accepts: health stays 200, readiness says 503.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await status(`${server.origin}/readyz`)).toBe(503);
    expect(await status(`${server.origin}/healthz`)).toBe(200);

    const { status: pageStatus, body } = await page.done;
    expect(pageStatus).toBe(200);
    expect(body).toContain('DELAYED-CONTENT');
    expect(body.trimEnd().endsWith('</html>')).toBe(true);
    const exit = await server.exited;
    const took = performance.now() - signalledAt;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(took).toBeGreaterThanOrEqual(600);
    expect(server.logs.map((line) => line.msg)).toEqual(expect.arrayContaining(['shutdown started', 'shutdown complete']));
    // After the delay the listener is closed: nothing new gets in.
    expect(await status(`${server.origin}/healthz`)).toBe(0);
  });

  test('closes idle keep-alive connections instead of waiting for their timeout', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '0' });
    const agent = new Agent({ keepAlive: true });
    const page = streamPage(`${server.origin}/`, agent);
    await page.done;
    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    // The idle socket would otherwise hold the server open for the 65 s keep-alive timeout.
    expect(performance.now() - signalledAt).toBeLessThan(3_000);
    agent.destroy();
  });

  test('past the deadline cuts what is left and exits 1', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '0', SHUTDOWN_DEADLINE_MS: '300', FIXTURE_DELAY_MS: '20000', RENDER_TIMEOUT_MS: '60000' });
    const page = streamPage(`${server.origin}/fixtures/delayed`);
    // Observed at once, so the expected failure is never an unhandled rejection.
    const outcome = page.done.then(
      () => 'completed',
      () => 'cut',
    );
    await page.shell;
    const signalledAt = performance.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    const took = performance.now() - signalledAt;
    expect(exit).toEqual({ code: 1, signal: null });
    expect(took).toBeGreaterThanOrEqual(300);
    expect(took).toBeLessThan(5_000);
    expect(await outcome).toBe('cut');
  });

  test('a second signal exits at once, with 130', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '30000' });
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const signalledAt = performance.now();
    server.child.kill('SIGINT');
    expect(await server.exited).toEqual({ code: 130, signal: null });
    expect(performance.now() - signalledAt).toBeLessThan(2_000);
  });
});

describe('SIGINT', () => {
  test('shuts down the same way', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '100' });
    server.child.kill('SIGINT');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});
