import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { serviceUnavailable } from '../../shared/api/status-helpers.ts';
import { defineRoute, layout, type LayoutModule } from '../../shared/api/route-definition.ts';
import { ServerRouteError, useRouteError } from '../../shared/api/route-errors.tsx';
import { createApp } from '../../server/app.ts';
import { createCapturingLogger } from '../../server/testing/test-app.ts';
import type { AppReadinessCheck } from '../../server/lifecycle/app-readiness.ts';
import { buildApp, delay, errorLines, TEST_FORMS } from '../support/build-app.ts';
import { Frame } from '../support/layout-frame.tsx';

/** The app's own typed error, as a store would throw it inside serviceUnavailable(). */
class StoreDown extends Error {
  override readonly name = 'StoreDown';
}

/** Shows the digest a server error carries into the boundary. */
function Boundary() {
  const error = useRouteError();
  return <p>BOUNDARY {error instanceof ServerRouteError ? error.digest : 'other'}</p>;
}

const DIGEST = /Digest: (?:<!-- -->)?([\w-]{16})/;

describe('serviceUnavailable()', () => {
  test('in a load without a boundary: the 503 status page with a digest, one error line with that digest whose err is the cause; JSON says 503 with it', async () => {
    const { app, logs } = buildApp([defineRoute({ path: '/down', component: () => null, load: () => serviceUnavailable(new StoreDown('db is down')) })]);
    const page = await request(app).get('/down').expect(503);
    expect(page.text).toContain('<title>503: Service Unavailable.</title>');
    expect(page.text).toContain('<h1>503</h1><h2>Service Unavailable.</h2>');
    const digest = DIGEST.exec(page.text)?.[1];
    expect(digest).toBeDefined();
    expect(errorLines(logs)).toEqual([expect.objectContaining({ msg: 'server error', digest, err: expect.objectContaining({ type: 'StoreDown', message: 'db is down' }) })]);
    const json = await request(app).get('/down').set('Accept', 'application/json').expect(503);
    expect(json.body).toMatchObject({ status: 503, digest: expect.stringMatching(/^[\w-]{16}$/) });
  });

  test("in a page under a layout's boundary: 503 with the boundary and its digest, the cause logged once", async () => {
    const section: LayoutModule = { default: Frame, ErrorBoundary: Boundary };
    const { app, logs } = buildApp([
      layout(section, [defineRoute({ path: '/inside', component: () => null, load: () => serviceUnavailable(new StoreDown('db is down')) })], { id: 'section' }),
    ]);
    const res = await request(app).get('/inside').expect(503);
    expect(res.text).toContain('<title>503: Service Unavailable.');
    const digest = /BOUNDARY (?:<!-- -->)?([\w-]{16})/.exec(res.text)?.[1];
    expect(digest).toBeDefined();
    expect(errorLines(logs)).toEqual([expect.objectContaining({ digest, err: expect.objectContaining({ type: 'StoreDown' }) })]);
  });

  test('a thrown error that carries status 503 itself is still a 500: only the helper says 503', async () => {
    const { app } = buildApp([
      defineRoute({
        path: '/claims',
        component: () => null,
        load: () => {
          throw Object.assign(new Error('upstream said 503'), { status: 503 });
        },
      }),
    ]);
    await request(app).get('/claims').expect(500);
  });

  test("a layout's deferred value that rejects while the page still loads is no unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const section: LayoutModule = {
        default: Frame,
        ErrorBoundary: Boundary,
        load: () => ({ stats: Promise.reject(new StoreDown('stats failed first')) }),
      };
      const { app } = buildApp([
        layout(
          section,
          [
            defineRoute({
              path: '/slow-failure',
              component: () => null,
              load: async () => {
                await delay(30);
                serviceUnavailable(new StoreDown('then the page'));
              },
            }),
          ],
          { id: 'section' },
        ),
      ]);
      await request(app).get('/slow-failure').expect(503);
      await delay(20);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe("/readyz asks the app's readiness check", () => {
  function appWith(readiness: AppReadinessCheck) {
    const { logger, logs } = createCapturingLogger();
    const app = createApp({ app: { routes: [defineRoute({ path: '/', component: () => null })], readinessCheck: readiness }, logger, forms: TEST_FORMS });
    return { app, logs };
  }

  test('at most once per interval however often it is polled; /healthz never asks it', async () => {
    let calls = 0;
    let healthy = true;
    const { app, logs } = appWith({
      intervalMs: 200,
      check: async () => {
        calls += 1;
        if (!healthy) throw new Error('database unavailable: connect ECONNREFUSED\nsecond line');
      },
    });
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(app).get('/readyz')));
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200));
    await request(app).get('/healthz').expect(200);
    expect(calls).toBe(1);
    healthy = false;
    // Still the kept answer within the interval.
    await request(app).get('/readyz').expect(200);
    await delay(220);
    const down = await request(app).get('/readyz').expect(503);
    // The probe answers anyone: why goes to the log line only, its first line, never the error's message in the body.
    expect(down.text).toBe('readiness check failed\n');
    expect(logs.find((line) => line.msg === 'app not ready: /readyz answers 503')).toMatchObject({ reason: 'readiness check failed: database unavailable: connect ECONNREFUSED' });
    await request(app).get('/healthz').expect(200);
    expect(calls).toBe(2);
    // The change is logged once, not per probe.
    await request(app).get('/readyz').expect(503);
    expect(logs.filter((line) => line.msg === 'app not ready: /readyz answers 503')).toHaveLength(1);
  });

  test('a check that does not answer within its timeout is a 503 after the timeout, never a hang', async () => {
    const { app } = appWith({ timeoutMs: 100, check: () => new Promise(() => undefined) });
    const started = performance.now();
    const res = await request(app).get('/readyz').expect(503);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(res.text).toBe('readiness check timed out after 100 ms\n');
  });
});
