import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { createActionHandler } from '../../server/actions/action-handler.ts';
import { ACTION_BODY_LIMIT_BYTES } from '../../server/actions/form-body.ts';
import { ClientDisconnectedError } from '../../server/render/render-errors.ts';
import { redirect } from '../../shared/api/action-helpers.ts';
import { NAVIGATION_HEADER, NAVIGATION_REDIRECT_HEADER, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { defineRoute, type ActionContext, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { buildApp, delay, errorLines, LEVEL, waitFor, type TestApp } from '../support/build-app.ts';
import { closeTestServers, listenForTest } from '../support/http-client.ts';
import { openRawConnection, rawRequest } from '../support/raw-http.ts';

/**
 * What an action's answers carry beyond their status (docs/building-an-app.md, "Forms and
 * actions"): redirects that no cache keeps, the in-place answer only for the navigation
 * runtime's exact header, a redirect's scheme, a client that leaves mid-action, and a body
 * exactly at the limit.
 */

const SECRET = 'action-answers-secret-0123456789-abcdefgh';
const HOST = 'app.test:8080';

interface Watched {
  /** Each action run, with its body. */
  readonly runs: Array<Readonly<Record<string, unknown>>>;
  /** The signal of each action run, as the action saw it. */
  readonly signals: AbortSignal[];
}

function actionApp(options: Parameters<typeof buildApp>[1] = {}): TestApp & Watched {
  const watched: Watched = { runs: [], signals: [] };
  const routes: RouteDefinition[] = [
    defineRoute({
      path: '/orders',
      component: () => <h1>Orders</h1>,
      action: async ({ body, signal }: ActionContext) => {
        watched.runs.push(body);
        watched.signals.push(signal);
        if (body.intent === 'wait') {
          // Settles only when the signal aborts: the client is gone, or the timeout passed.
          await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
        }
        if (typeof body.to === 'string') redirect(body.to);
        return { saved: true };
      },
    }),
  ];
  return { ...buildApp(routes, { forms: { secret: SECRET }, ...options }), ...watched };
}

/** A same-origin post, as a browser makes it. */
function post(app: TestApp['app'], fields: Record<string, string>, headers: Record<string, string> = {}): request.Test {
  return request(app).post('/orders').set('Host', HOST).set('Sec-Fetch-Site', 'same-origin').set(headers).type('form').send(fields);
}

afterEach(closeTestServers);

async function serve(built: TestApp): Promise<number> {
  return (await listenForTest(built.app)).port;
}

describe('redirect answers are never cached', () => {
  test('303 See Other carries Cache-Control: no-store', async () => {
    const { app } = actionApp();
    const res = await post(app, { to: '/orders/7' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/orders/7');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('the in-place 204 carries Cache-Control: no-store', async () => {
    const { app } = actionApp();
    const res = await post(app, { to: '/orders/7' }, { [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: 'n1' });
    expect(res.status).toBe(204);
    expect(res.headers[NAVIGATION_REDIRECT_HEADER]).toBe('/orders/7');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('only the exact navigation header is an in-place submission', () => {
  test.each(['Data', 'DATA', 'data, data', 'datax', '1', 'true', 'document'])('X-Navigation: %j gets the plain 303 with Location', async (value) => {
    const { app } = actionApp();
    const res = await post(app, { to: '/orders/7' }, { [NAVIGATION_HEADER]: value, [NAVIGATION_SCOPE_HEADER]: 'n1' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/orders/7');
    expect(res.headers[NAVIGATION_REDIRECT_HEADER]).toBeUndefined();
  });
});

describe('a redirect to this host on another scheme', () => {
  test.each([
    ['https on a post over http', `https://${HOST}/orders/7`, {}],
    ['http when the public origin is https', 'http://shop.example.com/orders/7', { publicOrigin: new URL('https://shop.example.com') }],
    ['ws on the same host and port', `ws://${HOST}/orders/7`, {}],
  ])('%s is refused: the 500 page, one error line, no Location', async (_case, to, options) => {
    const { app, logs } = actionApp(options);
    for (const inPlace of [false, true]) {
      const res = await post(app, { to }, inPlace ? { [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: 'n1' } : {});
      expect(res.status).toBe(500);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers[NAVIGATION_REDIRECT_HEADER]).toBeUndefined();
    }
    const errors = errorLines(logs);
    expect(errors).toHaveLength(2);
    for (const line of errors) expect(JSON.stringify(line)).toContain('redirect() refused');
  });

  test('a location that is no URL at all is refused, and the error line says why', async () => {
    const { app, logs } = actionApp();
    const res = await post(app, { to: 'http://[oops' });
    expect(res.status).toBe(500);
    expect(res.headers.location).toBeUndefined();
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain('redirect() refused: \\"http://[oops\\" is not a URL');
  });

  test('the same scheme, host and port is reduced to its path (the control case)', async () => {
    const { app } = actionApp({ publicOrigin: new URL('https://shop.example.com') });
    const res = await post(app, { to: 'https://shop.example.com/orders/7?x=1#top' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/orders/7?x=1#top');
  });
});

describe('a client that leaves during an action', () => {
  test("aborts the action's signal, and the log says so at info, with no error", async () => {
    const built = actionApp({ pages: { renderTimeoutMs: 5_000 } });
    const connection = await openRawConnection(await serve(built));
    const body = 'intent=wait';
    connection.write(
      `POST /orders HTTP/1.1\r\nHost: ${HOST}\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await waitFor(() => built.signals.length === 1, 2_000, 'the action to start');
    const signal = built.signals[0];
    expect(signal?.aborted).toBe(false);
    connection.destroy();
    // Well before the render timeout: the disconnect, not the timer, stops it.
    await waitFor(() => signal?.aborted === true, 2_000, 'the signal to abort');
    expect(signal?.reason).toBeInstanceOf(ClientDisconnectedError);
    await waitFor(() => built.logs.some((line) => line.msg === 'action aborted: client disconnected'), 2_000, 'the abort line');
    expect(built.logs.filter((line) => line.msg === 'action aborted: client disconnected')).toEqual([expect.objectContaining({ level: LEVEL.info, route: '/orders' })]);
    expect(errorLines(built.logs)).toEqual([]);
  });
});

describe("an action's signal after its answer", () => {
  test('never aborts once the answer is out: not when the connection closes, not when the render timeout passes', async () => {
    const built = actionApp({ pages: { renderTimeoutMs: 200 } });
    const redirected = await post(built.app, { to: '/orders/7' });
    expect(redirected.status).toBe(303);
    const shown = await post(built.app, { intent: 'save' });
    expect(shown.status).toBe(200);
    // What an action handed its signal (a write it left running) must not be cut by a finished answer.
    await delay(400);
    expect(built.signals.map((signal) => signal.aborted)).toEqual([false, false]);
  });
});

describe('an action handler', () => {
  test('is made only for a route with an action, and says which route had none', () => {
    const route: RouteDefinition = defineRoute({ path: '/no-action', component: () => null });
    const shown = { get: () => undefined, afterAction: async () => undefined };
    expect(() => createActionHandler(route, shown, { publicOrigin: undefined, getLoadContext: undefined, renderTimeoutMs: 1_000 })).toThrow('Route /no-action has no action');
  });
});

describe('a body exactly at the limit', () => {
  test(`a declared Content-Length of exactly ${ACTION_BODY_LIMIT_BYTES} bytes is read and reaches the action`, async () => {
    const built = actionApp();
    const start = 'intent=save&pad=';
    const body = start + 'x'.repeat(ACTION_BODY_LIMIT_BYTES - start.length);
    expect(Buffer.byteLength(body)).toBe(ACTION_BODY_LIMIT_BYTES);
    const res = await rawRequest(
      await serve(built),
      `POST /orders HTTP/1.1\r\nHost: ${HOST}\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${ACTION_BODY_LIMIT_BYTES}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(res.status).toBe(200);
    expect(built.runs).toHaveLength(1);
    expect(String(built.runs[0]?.pad)).toHaveLength(ACTION_BODY_LIMIT_BYTES - start.length);
  });
});
