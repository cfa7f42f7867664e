import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Suspense, use } from 'react';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { defineApp, type OnServerError } from '../../server/index.ts';
import { createTestApp, type TestLogLine } from '../../server/testing/index.ts';
import { defineRoute, notFound } from '../../shared/index.ts';
import { closeTestServers, listenForTest } from '../support/http-client.ts';

/**
 * The app's `onError` (docs/observability.md#reporting-errors), through its declaration: every
 * server error is posted by the app's hook to a collector, a real HTTP server on loopback, as an
 * error tracker would be; once per error, with its log line's digest, never holding the answer.
 */

interface Report {
  readonly digest: string;
  readonly route: string | null;
  readonly method: string;
  readonly url: string;
  readonly message: string;
  /** Whether the error's `server error` line was in the log when the hook ran. */
  readonly loggedFirst: boolean;
}

/** What the collector does with a report: take it (204), keep it waiting, or fail (500). */
type CollectorMode = 'answer' | 'hold' | 'fail';

interface Collector {
  readonly url: string;
  readonly reports: Report[];
  mode: CollectorMode;
  /** Requests kept waiting ('hold'), answered when the test ends. */
  readonly held: ServerResponse[];
}

let collector: Collector;
let collectorServer: Server;

beforeEach(async () => {
  const reports: Report[] = [];
  const held: ServerResponse[] = [];
  const state = { mode: 'answer' as CollectorMode };
  collectorServer = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    reports.push(JSON.parse(body));
    if (state.mode === 'hold') held.push(res);
    else res.writeHead(state.mode === 'fail' ? 500 : 204).end();
  });
  await new Promise<void>((resolve) => collectorServer.listen(0, '127.0.0.1', resolve));
  const address = collectorServer.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  collector = {
    url: `http://127.0.0.1:${address.port}/reports`,
    reports,
    held,
    get mode() {
      return state.mode;
    },
    set mode(mode) {
      state.mode = mode;
    },
  };
});

afterEach(async () => {
  for (const res of collector.held) res.writeHead(204).end();
  collectorServer.closeAllConnections();
  await new Promise<void>((resolve) => collectorServer.close(() => resolve()));
  await closeTestServers();
});

function failing(message: string): never {
  throw new Error(message);
}

function Later({ value }: { value: Promise<string> }) {
  return <p>{use(value)}</p>;
}

/** The app under test: one route, middleware and action for each way a request meets a server error. */
function errorApp(onError: (logs: () => readonly TestLogLine[]) => OnServerError) {
  let logs: readonly TestLogLine[] = [];
  const definition = defineApp({
    routes: [
      defineRoute({ path: '/load/:id', component: () => <p>never</p>, load: () => failing('load failed') }),
      defineRoute({ path: '/render', component: () => failing('render failed') }),
      defineRoute({
        path: '/deferred',
        component: ({ data }: { data: { later: Promise<string> } }) => (
          <Suspense fallback={<p>waiting</p>}>
            <Later value={data.later} />
          </Suspense>
        ),
        load: () => ({ later: new Promise<string>((_resolve, reject) => setTimeout(() => reject(new Error('deferred failed')), 10)) }),
      }),
      defineRoute({ path: '/resource', load: () => failing('resource failed') }),
      defineRoute({ path: '/action', component: () => <p>form</p>, action: () => failing('action failed') }),
      defineRoute({ path: '/missing', component: () => <p>never</p>, load: () => notFound() }),
    ],
    middleware: (router) => {
      router.get('/middleware', () => failing('middleware failed'));
    },
    onError: onError(() => logs),
  });
  const testApp = createTestApp(definition);
  logs = testApp.logs;
  return testApp;
}

/** The app's hook as an app would write it: post what the tracker needs, fail when it refuses. */
function postToCollector(logs: () => readonly TestLogLine[]): OnServerError {
  return async (error, { digest, request, route }) => {
    const loggedFirst = logs().some((line) => line.msg === 'server error' && line.digest === digest);
    const message = error instanceof Error ? error.message : String(error);
    const report: Report = { digest, route, method: request.method, url: request.url, message, loggedFirst };
    const answer = await fetch(collector.url, { method: 'POST', body: JSON.stringify(report), signal: AbortSignal.timeout(5_000) });
    if (!answer.ok) throw new Error(`collector answered ${answer.status}`);
  };
}

async function waitFor(predicate: () => boolean, what: string): Promise<void> {
  const until = Date.now() + 3_000;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A request that must be answered well within the collector's wait, or it fails. */
function send(origin: string, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${origin}${path}`, { ...init, signal: AbortSignal.timeout(2_000) });
}

const serverErrors = (logs: readonly TestLogLine[]) => logs.filter((line) => line.msg === 'server error');
const hookFailures = (logs: readonly TestLogLine[]) => logs.filter((line) => line.msg === 'onError hook failed');

describe("the app's onError", () => {
  test('is given each server error once, after its one log line, with its digest, request and route pattern', async () => {
    const { app, logs } = errorApp(postToCollector);
    const { origin } = await listenForTest(app);
    const cases = [
      { path: '/load/7', status: 500, route: '/load/:id', message: 'load failed' },
      { path: '/render', status: 500, route: '/render', message: 'render failed' },
      { path: '/deferred', status: 200, route: '/deferred', message: 'deferred failed' },
      { path: '/resource', status: 500, route: '/resource', message: 'resource failed' },
      { path: '/middleware', status: 500, route: null, message: 'middleware failed' },
    ];
    for (const { path, status } of cases) {
      const answer = await send(origin, path);
      expect(answer.status).toBe(status);
      await answer.text();
    }
    const action = await send(origin, '/action', { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' });
    expect(action.status).toBe(500);
    await action.text();
    // Neither a status helper's 404 nor an unknown path is a server error.
    expect((await send(origin, '/missing')).status).toBe(404);
    expect((await send(origin, '/nowhere')).status).toBe(404);
    const all = [...cases, { path: '/action', status: 500, route: '/action', message: 'action failed' }];

    await waitFor(() => collector.reports.length >= all.length, 'a report per error');
    // A report late or twice would show here.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(collector.reports).toHaveLength(all.length);
    const lines = serverErrors(logs);
    expect(lines).toHaveLength(all.length);
    for (const { path, route, message } of all) {
      const report = collector.reports.find((candidate) => candidate.message === message);
      expect(report, message).toMatchObject({ route, url: `${origin}${path}`, method: path === '/action' ? 'POST' : 'GET', loggedFirst: true });
      const line = lines.find((candidate) => (candidate.err as { message: string }).message === message);
      expect(line?.digest, message).toBe(report?.digest);
    }
    expect(hookFailures(logs)).toEqual([]);
  });

  test('a collector that keeps the report waiting holds neither the answer nor the next request', async () => {
    collector.mode = 'hold';
    const { app, logs } = errorApp(postToCollector);
    const { origin } = await listenForTest(app);
    const answer = await send(origin, '/load/1');
    expect(answer.status).toBe(500);
    const page = await answer.text();
    const [line] = serverErrors(logs);
    expect(page).toContain(String(line?.digest));
    await waitFor(() => collector.held.length === 1, 'the report to reach the collector');
    // The report is still unanswered, and the app goes on answering.
    expect((await send(origin, '/render')).status).toBe(500);
    await waitFor(() => collector.held.length === 2, 'the second report');
    expect(hookFailures(logs)).toEqual([]);
  });

  test('a collector that fails, or is not there, leaves the answer as it was and is logged once', async () => {
    collector.mode = 'fail';
    const { app, logs } = errorApp(postToCollector);
    const { origin } = await listenForTest(app);
    const answer = await send(origin, '/load/2');
    expect(answer.status).toBe(500);
    const [line] = serverErrors(logs);
    expect(await answer.text()).toContain(String(line?.digest));
    await waitFor(() => hookFailures(logs).length === 1, 'the hook failure line');
    expect(hookFailures(logs)[0]).toMatchObject({ level: 40, digest: line?.digest, route: '/load/:id', err: { message: 'collector answered 500' } });

    // Nobody listening: fetch rejects, the hook rejects, one line again.
    collectorServer.closeAllConnections();
    await new Promise<void>((resolve) => collectorServer.close(() => resolve()));
    collectorServer.listen(0, '127.0.0.1');
    expect((await send(origin, '/resource')).status).toBe(500);
    await waitFor(() => hookFailures(logs).length === 2, 'the second hook failure line');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hookFailures(logs)).toHaveLength(2);
    expect(serverErrors(logs)).toHaveLength(2);
  });

  test('a hook that throws is logged once with its own message; the answer and the process go on', async () => {
    const { app, logs } = errorApp(() => () => {
      throw new Error('tracker not configured');
    });
    const { origin } = await listenForTest(app);
    const answer = await send(origin, '/render');
    expect(answer.status).toBe(500);
    const [line] = serverErrors(logs);
    expect(await answer.text()).toContain(String(line?.digest));
    await waitFor(() => hookFailures(logs).length === 1, 'the hook failure line');
    expect(hookFailures(logs)[0]).toMatchObject({ level: 40, digest: line?.digest, err: { name: 'Error', message: 'tracker not configured' } });
    expect((await send(origin, '/load/3')).status).toBe(500);
    await waitFor(() => hookFailures(logs).length === 2, 'the second hook failure line');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hookFailures(logs)).toHaveLength(2);
    expect(serverErrors(logs)).toHaveLength(2);
  });
});
