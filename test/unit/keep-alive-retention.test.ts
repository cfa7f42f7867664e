import type { IncomingMessage, ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, test } from 'vitest';
import type { RouteDefinition } from '../../shared/api/route-definition.ts';
import { buildApp, delay } from '../support/build-app.ts';
import { closeTestServers, listenForTest } from '../support/http-client.ts';
import { unitRoutes } from '../support/pages.tsx';
import { openRawConnection, type RawConnection } from '../support/raw-http.ts';

/**
 * A browser keeps its connection open for up to the keep-alive timeout after a page. What the
 * page's render held (React's request, the page handler's closures, the response, the data)
 * must be garbage as soon as the answer is out, not when the connection's next request comes:
 * React renders inside an AsyncLocalStorage context, and whatever Node arms in it as an answer
 * finishes (the connection's idle timer) would otherwise keep the whole render reachable.
 */

const connections: RawConnection[] = [];
afterEach(async () => {
  for (const connection of connections.splice(0)) connection.destroy();
  await closeTestServers();
});

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const collect: unknown = runInNewContext('gc');
  if (typeof collect !== 'function') throw new Error('gc is not available');
  collect();
}

/** The fixture's pages, each `load`'s data watched through a WeakRef (the response is watched too). */
function watchedRoutes(watched: WeakRef<object>[]): readonly RouteDefinition[] {
  return unitRoutes(20).map((route): RouteDefinition => {
    const { load } = route;
    if (load === undefined) return route;
    return {
      ...route,
      load: async (context) => {
        const data: unknown = await load(context);
        if (typeof data === 'object' && data !== null) watched.push(new WeakRef(data));
        return data;
      },
    };
  });
}

/** Sends one request on a keep-alive connection and waits until its answer has fully arrived. */
async function answerOnOpenConnection(port: number, method: string, path: string): Promise<string> {
  const connection = await openRawConnection(port);
  connections.push(connection);
  connection.write(`${method} ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\n\r\n`);
  const deadline = performance.now() + 5_000;
  const complete = (text: string) => (method === 'HEAD' ? text.includes('\r\n\r\n') : text.endsWith('0\r\n\r\n'));
  while (!complete(connection.received()) && performance.now() < deadline) await delay(5);
  expect(connection.isClosed()).toBe(false);
  return connection.received();
}

describe('a finished page on an open keep-alive connection', () => {
  test.each([
    ['GET', '/', 'rendered at once'],
    ['GET', '/slow', 'ended after a Suspense boundary resolved'],
    ['HEAD', '/', 'answered without a body'],
  ])('%s %s (%s) leaves nothing of its render reachable', async (method, path) => {
    const watched: WeakRef<object>[] = [];
    const { app } = buildApp(watchedRoutes(watched));
    const { port } = await listenForTest(
      function watchResponse(req: IncomingMessage, res: ServerResponse) {
        watched.push(new WeakRef(res));
        app(req, res);
      },
      { keepAliveTimeoutMs: 60_000 },
    );
    const answer = await answerOnOpenConnection(port, method, path);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    // The response and the page's data.
    expect(watched).toHaveLength(2);
    // The answer's last events (finish, close) run in the next turns; then two collections.
    await delay(20);
    collectGarbage();
    await delay(0);
    collectGarbage();
    expect(watched.map((ref) => ref.deref() === undefined)).toEqual([true, true]);
  });
});
