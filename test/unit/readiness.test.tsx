import { Agent, request as httpRequest } from 'node:http';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { ReadinessState } from '../../server/lifecycle/readiness.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { buildApp, LEVEL, waitFor } from '../support/build-app.ts';
import { close, listen } from '../support/http-client.ts';
import { unitRoutes } from '../support/pages.tsx';

/** The `Connection` header of a GET sent over a keep-alive agent (supertest always asks to close). */
function connectionHeader(url: string, agent: Agent): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers.connection));
    })
      .on('error', reject)
      .end();
  });
}

/**
 * These tests call `markShuttingDown()` themselves: they check what the app does once readiness
 * is off, not that a signal turns it off. That SIGTERM and SIGINT flip it (and when) is caught
 * only by the process tests, test/process/graceful-shutdown.test.ts, on the real process.
 */
function appWithReadiness() {
  const readiness = new ReadinessState();
  return { readiness, ...buildApp(unitRoutes(), { readiness }) };
}

describe('/healthz and /readyz', () => {
  test('both answer 200 "ok" while the instance takes traffic, never cached', async () => {
    const { app } = appWithReadiness();
    for (const path of ['/healthz', '/readyz']) {
      const res = await request(app).get(path);
      expect(res.status).toBe(200);
      expect(res.text).toBe('ok\n');
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  test("match as Express's routes do: in any case, with or without a trailing slash, and nothing longer", async () => {
    const { app } = appWithReadiness();
    for (const path of ['/HEALTHZ', '/healthz/', '/ReadyZ/', '/readyz?probe=1']) {
      const res = await request(app).get(path);
      expect(res.status, path).toBe(200);
      expect(res.text, path).toBe('ok\n');
    }
    for (const path of ['/healthz/more', '/healthzz', '/readyz//']) {
      expect((await request(app).get(path)).status, path).toBe(404);
    }
  });

  test('once shutdown began, /readyz answers 503 while /healthz stays 200', async () => {
    const { app, readiness } = appWithReadiness();
    readiness.markShuttingDown();
    const ready = await request(app).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.text).toBe('shutting down\n');
    expect((await request(app).get('/healthz')).status).toBe(200);
  });

  test('once shutdown began, every answer says Connection: close to a keep-alive client, pages included', async () => {
    const { app, readiness } = appWithReadiness();
    const { server, origin } = await listen(app);
    const agent = new Agent({ keepAlive: true });
    try {
      expect(await connectionHeader(`${origin}/users/1`, agent)).toBe('keep-alive');
      readiness.markShuttingDown();
      for (const path of ['/healthz', '/users/1', '/missing']) {
        expect(await connectionHeader(`${origin}${path}`, agent), path).toBe('close');
      }
    } finally {
      agent.destroy();
      await close(server);
    }
  });

  test('an answer written after shutdown began says Connection: close though its request came before, a page and an app route alike', async () => {
    const readiness = new ReadinessState();
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const arrived: string[] = [];
    const routes = unitRoutes().concat([
      defineRoute({
        path: '/waits',
        component: () => <p>waited</p>,
        load: async () => {
          arrived.push('/waits');
          await released;
          return {};
        },
      }),
    ]);
    const { app } = buildApp(routes, {
      readiness,
      middleware: (router) => {
        router.get('/app-waits', async (_req, res) => {
          arrived.push('/app-waits');
          await released;
          res.send('waited');
        });
      },
    });
    const { server, origin } = await listen(app);
    const agent = new Agent({ keepAlive: true });
    try {
      const answers = ['/waits', '/app-waits'].map((path) => connectionHeader(`${origin}${path}`, agent));
      await waitFor(() => arrived.length === 2, 2_000, 'both requests in the app');
      readiness.markShuttingDown();
      release();
      expect(await Promise.all(answers)).toEqual(['close', 'close']);
    } finally {
      agent.destroy();
      await close(server);
    }
  });

  test.each(['/healthz', '/readyz'])('%s answers other methods as pages do: 405 with Allow: GET, HEAD', async (path) => {
    const { app } = appWithReadiness();
    const withoutNonce = (html: string) => html.replace(/nonce="[^"]+"/g, 'nonce=""');
    const page = await request(app).options('/users/1');
    expect(page.status).toBe(405);
    for (const method of ['options', 'post', 'put', 'delete', 'patch'] as const) {
      const res = await request(app)[method](path);
      expect(res.status, method).toBe(405);
      expect(res.headers.allow, method).toBe('GET, HEAD');
      expect(res.headers['content-type'], method).toBe(page.headers['content-type']);
      expect(withoutNonce(res.text), method).toBe(withoutNonce(page.text));
    }
    const head = await request(app).head(path);
    expect(head.status).toBe(200);
    expect(head.text ?? '').toBe('');
  });

  test('log at debug even when failing, so probes never flood an info log', async () => {
    const { app, logs, readiness } = appWithReadiness();
    readiness.markShuttingDown();
    await request(app).get('/readyz').expect(503);
    expect(logs.map((line) => line.level)).toEqual([LEVEL.debug]);
  });
});
