import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { defineRoute, type PageProps } from '../../shared/api/route-definition.ts';
import { buildApp, errorLines, waitFor } from '../support/build-app.ts';
import { closeTestServers, listenForTest } from '../support/http-client.ts';
import { openRawConnection } from '../support/raw-http.ts';

afterEach(closeTestServers);

/**
 * A post is one request with one lifecycle (docs/rendering.md#one-request-one-lifecycle): its
 * action and the loads of the page shown after it share one app context, one signal and one
 * render timeout, which counts them together.
 */
const TIMEOUT_MS = 300;

/** What the app's context holds for one request: the stages that touched it, in order. */
interface Trail {
  readonly stages: string[];
}

declare module '../../shared/api/route-definition.ts' {
  interface AppLoadContext {
    readonly trail?: Trail;
  }
}

function Shown({ data }: PageProps) {
  return <pre id="shown">{JSON.stringify(data)}</pre>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function post(app: Parameters<typeof request>[0], path: string) {
  return request(app).post(path).set('Sec-Fetch-Site', 'same-origin').set('Accept', 'text/html').type('form').send({ name: 'Ada' });
}

describe('a post, one lifecycle', () => {
  test("the action's change to the context is what the load after it sees, and getLoadContext runs once", async () => {
    let contexts = 0;
    const signals: AbortSignal[] = [];
    const { app } = buildApp(
      [
        defineRoute({
          path: '/trail',
          component: Shown,
          load: ({ context, signal }) => {
            signals.push(signal);
            context.trail?.stages.push('load');
            return context.trail?.stages;
          },
          action: ({ context, signal }) => {
            signals.push(signal);
            context.trail?.stages.push('action');
            return { saved: true };
          },
        }),
      ],
      {
        pages: { renderTimeoutMs: TIMEOUT_MS },
        getLoadContext: () => {
          contexts += 1;
          return { trail: { stages: ['context'] } };
        },
      },
    );
    const res = await post(app, '/trail').expect(200);
    expect(res.text).toContain('<pre id="shown">[&quot;context&quot;,&quot;action&quot;,&quot;load&quot;]</pre>');
    expect(contexts).toBe(1);
    // One signal from the action to the load.
    expect(signals).toHaveLength(2);
    expect(signals[0]).toBe(signals[1]);
  });

  test('an action and a load that together pass the render timeout are cut once, at the timeout', async () => {
    let loadSignal: AbortSignal | undefined;
    const { app, logs } = buildApp(
      [
        defineRoute({
          path: '/slow-post',
          component: Shown,
          load: async ({ signal }) => {
            loadSignal = signal;
            await sleep(TIMEOUT_MS * 0.7);
            return 'loaded';
          },
          action: async () => {
            await sleep(TIMEOUT_MS * 0.7);
            return { saved: true };
          },
        }),
      ],
      { pages: { renderTimeoutMs: TIMEOUT_MS } },
    );
    const started = performance.now();
    const res = await post(app, '/slow-post');
    const tookMs = performance.now() - started;
    // Each stage alone is within the timeout; together they are not.
    expect(res.status).toBe(500);
    expect(tookMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(tookMs).toBeLessThan(TIMEOUT_MS * 1.4);
    expect(loadSignal?.aborted).toBe(true);
    expect(loadSignal?.reason).toMatchObject({ name: 'RenderTimeoutError' });
    const digest = /Digest: ([\w-]+)/.exec(res.text)?.[1];
    const errors = errorLines(logs);
    expect(errors).toEqual([
      expect.objectContaining({
        digest,
        route: '/slow-post',
        err: expect.objectContaining({ name: 'RenderTimeoutError', message: `The render did not finish within ${TIMEOUT_MS} ms` }),
      }),
    ]);
  });

  test('an action alone past the timeout is named in the error line', async () => {
    const { app, logs } = buildApp(
      [defineRoute({ path: '/slow-action', component: Shown, load: () => 'never', action: () => sleep(TIMEOUT_MS * 2).then(() => ({ saved: true })) })],
      { pages: { renderTimeoutMs: TIMEOUT_MS } },
    );
    const res = await post(app, '/slow-action');
    expect(res.status).toBe(500);
    expect(errorLines(logs)).toEqual([
      expect.objectContaining({ err: expect.objectContaining({ name: 'RenderTimeoutError', message: `The action did not finish within ${TIMEOUT_MS} ms` }) }),
    ]);
  });

  test('a client that leaves during the action is one info line, the action aborted, and no load runs', async () => {
    let loads = 0;
    let actionSignal: AbortSignal | undefined;
    const built = buildApp(
      [
        defineRoute({
          path: '/leave',
          component: Shown,
          load: () => {
            loads += 1;
            return 'loaded';
          },
          action: async ({ signal }) => {
            actionSignal = signal;
            await sleep(TIMEOUT_MS);
            return { saved: true };
          },
        }),
      ],
      { pages: { renderTimeoutMs: 5_000 } },
    );
    const connection = await openRawConnection((await listenForTest(built.app)).port);
    const body = 'name=Ada';
    connection.write(
      `POST /leave HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await waitFor(() => actionSignal !== undefined, 2_000, 'the action to start');
    connection.destroy();
    await waitFor(() => actionSignal?.aborted === true, 2_000, 'the signal to abort');
    await sleep(TIMEOUT_MS + 50);
    const aborts = built.logs.filter((line) => /aborted: client disconnected$/.test(String(line.msg)));
    expect(aborts).toEqual([expect.objectContaining({ msg: 'action aborted: client disconnected', route: '/leave' })]);
    expect(loads).toBe(0);
    expect(errorLines(built.logs)).toEqual([]);
  });
});
