import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { buildApp, delay, errorLines, waitFor } from '../support/build-app.ts';
import { closeTestServers, DESKTOP_CHROME, listenForTest } from '../support/http-client.ts';
import type { LoadContext } from '../../shared/api/route-definition.ts';
import { ClientDisconnectedError, RenderTimeoutError } from '../../server/render/render-errors.ts';

afterEach(closeTestServers);

/**
 * A page's `load` gets `signal` (docs/building-an-app.md): aborted when the client goes away or
 * the render timeout passes while it runs. The signal is made when a load first reads it, so
 * these read it at every moment a load may: at once, late, after its answer.
 */
interface Seen {
  started: boolean;
  /** The signal's reason once it aborted, or `'open'` when it was read and not aborted. */
  reason?: unknown;
}

/** Reads `signal` at once and waits for it to abort. */
function waitsForAbort(seen: Seen) {
  return ({ signal }: LoadContext) =>
    new Promise<never>((_resolve, reject) => {
      seen.started = true;
      signal.addEventListener('abort', () => {
        seen.reason = signal.reason;
        reject(signal.reason);
      });
    });
}

/** Waits `ms` without the signal, then reads it for the first time. */
function readsLate(seen: Seen, ms: number) {
  return async (context: LoadContext) => {
    seen.started = true;
    await delay(ms);
    seen.reason = context.signal.aborted ? context.signal.reason : 'open';
    return {};
  };
}

/** Asks for `path` and goes away once the load has started. */
async function leaveDuringLoad(origin: string, path: string, seen: Seen): Promise<void> {
  const req = httpRequest(`${origin}${path}`, { headers: { 'User-Agent': DESKTOP_CHROME } });
  req.on('error', () => undefined);
  req.end();
  await waitFor(() => seen.started, 2_000, 'the load to start');
  req.destroy();
}

describe("a page load's signal", () => {
  test('aborts with ClientDisconnectedError when the client goes while the load runs', async () => {
    const seen: Seen = { started: false };
    const { app, logs } = buildApp([{ path: '/waits', component: () => null, load: waitsForAbort(seen) }], { pages: { renderTimeoutMs: 30_000 } });
    const { origin } = await listenForTest(app);
    await leaveDuringLoad(origin, '/waits', seen);
    await waitFor(() => seen.reason !== undefined, 2_000, 'the signal to abort');
    expect(seen.reason).toBeInstanceOf(ClientDisconnectedError);
    expect(errorLines(logs)).toEqual([]);
  });

  test('aborts with RenderTimeoutError at the render timeout, and the page is the 500 page', async () => {
    const seen: Seen = { started: false };
    const { app } = buildApp([{ path: '/waits', component: () => null, load: waitsForAbort(seen) }], { pages: { renderTimeoutMs: 50 } });
    const res = await request(app).get('/waits').set('User-Agent', DESKTOP_CHROME);
    expect(res.status).toBe(500);
    expect(seen.reason).toBeInstanceOf(RenderTimeoutError);
  });

  test('read for the first time after the client went, is aborted already', async () => {
    const seen: Seen = { started: false };
    const { app } = buildApp([{ path: '/late', component: () => null, load: readsLate(seen, 150) }], { pages: { renderTimeoutMs: 30_000 } });
    const { origin } = await listenForTest(app);
    await leaveDuringLoad(origin, '/late', seen);
    await waitFor(() => seen.reason !== undefined, 2_000, 'the load to read its signal');
    expect(seen.reason).toBeInstanceOf(ClientDisconnectedError);
  });

  test('read late by a load whose page was answered, is not aborted', async () => {
    const seen: Seen = { started: false };
    const { app } = buildApp([{ path: '/late', component: () => <p>done</p>, load: readsLate(seen, 20) }], { pages: { renderTimeoutMs: 30_000 } });
    const res = await request(app).get('/late').set('User-Agent', DESKTOP_CHROME);
    expect(res.status).toBe(200);
    expect(seen.reason).toBe('open');
  });
});
