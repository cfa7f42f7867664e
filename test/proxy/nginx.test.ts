import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/proxy-harness.ts';
import { freePort } from '../../scripts/lib/loopback.ts';
import { waitFor } from '../support/build-app.ts';
import { DESKTOP_CHROME, getTimed } from '../support/http-client.ts';
import { startNginx, type RunningNginx } from './nginx.ts';

/** nginx connects from this address (proxy_bind); the instances trust only it. */
const PROXY_ADDRESS = '127.0.0.2';

let nginx: RunningNginx;
const instances: ServerProcess[] = [];
let ports: [number, number];

function instanceEnv(port: number): Record<string, string> {
  return { PORT: String(port), TRUST_PROXY: PROXY_ADDRESS, SHUTDOWN_DELAY_MS: '1000' };
}

beforeAll(async () => {
  ports = [await freePort(), await freePort()];
  for (const port of ports) instances.push(await startServerProcess(instanceEnv(port)));
  nginx = await startNginx({ port: await freePort(), upstreams: ports, locationExtras: `proxy_bind ${PROXY_ADDRESS};` });
});
afterAll(async () => {
  await nginx?.stop();
  await Promise.all(instances.map((instance) => instance.stop()));
});

function allLogs(): Record<string, unknown>[] {
  return instances.flatMap((instance) => instance.logs);
}

/** The completion line of the request whose answer carried `requestId`, once its instance has written it. */
async function completionLineOf(requestId: string | string[] | undefined): Promise<Record<string, unknown>> {
  expect(typeof requestId).toBe('string');
  const find = () => allLogs().find((entry) => entry.msg === 'request completed' && entry.reqId === requestId);
  await waitFor(() => find() !== undefined, 5_000, `the completion line of ${String(requestId)}`);
  return find() ?? {};
}

describe('behind real nginx', () => {
  test('streaming passes through unbuffered: the shell arrives before the slow boundary', async () => {
    const res = await getTimed(`${nginx.origin}/fixtures/slow?ms=1000`);
    expect(res.status).toBe(200);
    const shell = res.chunks.find((chunk) => chunk.text.includes('SLOW-SHELL'));
    const content = res.chunks.find((chunk) => chunk.text.includes('SLOW-BOUNDARY-CONTENT'));
    if (shell === undefined || content === undefined) throw new Error('shell or content missing');
    expect(content.at - shell.at).toBeGreaterThan(700);
  });

  test('forwarded headers from nginx reach the app; what the client claims does not', async () => {
    const requestId = `fwd-${Date.now()}`;
    const res = await getTimed(`${nginx.origin}/fixtures/throw`, {
      Host: 'shop.example.com',
      'X-Forwarded-For': '203.0.113.9',
      'X-Forwarded-Proto': 'https',
      'X-Request-Id': requestId,
    });
    expect(res.status).toBe(500);
    // nginx sets X-Forwarded-Host from Host, and the app trusts nginx's address.
    expect(res.body).toContain('while loading shop.example.com (see');
    const line = await completionLineOf(res.headers['x-request-id']);
    // nginx overwrites X-Forwarded-For with the real peer and X-Forwarded-Proto with its scheme.
    expect(line).toMatchObject({ path: '/fixtures/throw', ip: '127.0.0.1', protocol: 'http' });
  });

  test('spoofed forwarded headers straight from an untrusted peer are ignored', async () => {
    const res = await getTimed(`http://127.0.0.1:${ports[0]}/fixtures/throw`, {
      Host: 'direct.internal',
      'X-Forwarded-For': '203.0.113.9',
      'X-Forwarded-Host': 'evil.example.net',
      'X-Forwarded-Proto': 'https',
    });
    expect(res.body).toContain('while loading direct.internal (see');
    expect(res.body).not.toContain('evil.example.net');
    const line = await completionLineOf(res.headers['x-request-id']);
    expect(line).toMatchObject({ path: '/fixtures/throw', ip: '127.0.0.1', protocol: 'http' });
  });

  test('a rolling restart under load fails no request', async () => {
    const finished = new Promise<autocannon.Result>((resolve, reject) => {
      autocannon({ url: `${nginx.origin}/`, connections: 8, duration: 10, headers: { 'User-Agent': DESKTOP_CHROME } }, (error, result) =>
        error ? reject(error) : resolve(result),
      );
    });

    for (const index of [0, 1] as const) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const old = instances[index];
      if (old === undefined) throw new Error('instance missing');
      old.child.kill('SIGTERM');
      expect(await old.exited).toEqual({ code: 0, signal: null });
      instances[index] = await startServerProcess(instanceEnv(ports[index]));
    }
    const result = await finished;
    process.stdout.write(`rolling restart through nginx: ${result.requests.total} requests, ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx\n`);
    expect(result.requests.total).toBeGreaterThan(1_000);
    if (result.errors > 0) process.stdout.write(`nginx error log:\n${await nginx.errorLog()}\n`);
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
  }, 60_000);

  test('SIGTERM during a long stream: readiness turns 503 first, the stream completes, exit 0', async () => {
    const instance = instances[0];
    if (instance === undefined) throw new Error('instance missing');
    const direct = `http://127.0.0.1:${ports[0]}`;
    // Straight to the instance, so the stream is certainly on the one being stopped; it
    // outlasts the shutdown delay, so it is still running when the listener closes.
    const page = getTimed(`${direct}/fixtures/slow?ms=2500`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const signalledAt = performance.now();
    instance.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await fetch(`${direct}/readyz`)).status).toBe(503);
    const notReadyAt = performance.now() - signalledAt;
    // Past the delay the listener is closed while the stream goes on; nginx serves from B.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await expect(fetch(`${direct}/healthz`)).rejects.toThrow();
    expect((await fetch(`${nginx.origin}/`)).status).toBe(200);
    const res = await page;
    const streamEndedAt = performance.now() - signalledAt;
    expect(res.status).toBe(200);
    expect(res.body).toContain('SLOW-BOUNDARY-CONTENT');
    expect(res.body.trimEnd().endsWith('</html>')).toBe(true);
    expect(await instance.exited).toEqual({ code: 0, signal: null });
    const exitedAt = performance.now() - signalledAt;
    process.stdout.write(
      `SIGTERM during a stream (delay 1000 ms): /readyz 503 by ${Math.round(notReadyAt)} ms, stream complete at ` +
        `${Math.round(streamEndedAt)} ms, exit 0 at ${Math.round(exitedAt)} ms\n`,
    );
    instances[0] = await startServerProcess(instanceEnv(ports[0]));
  });
});
