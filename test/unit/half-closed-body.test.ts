import { afterEach, describe, expect, test, vi } from 'vitest';
import { defineRoute, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { VITALS_ENDPOINT } from '../../shared/protocol/telemetry.ts';
import { buildApp, delay, errorLines, waitFor, type TestApp } from '../support/build-app.ts';
import { afterServerCloses, expectOneClosingStatusPage, watchConsoleError, type ClosedExchange } from '../support/closing-answers.ts';
import { closeTestServers, listenForTest } from '../support/http-client.ts';
import { unitRoutes } from '../support/pages.tsx';
import { openRawConnection, splitResponses } from '../support/raw-http.ts';

/**
 * A client that sends part of a body and then half-closes (a FIN: it will send nothing more)
 * has sent a request that can never be whole. It gets the 400 page at once and the connection
 * closes, rather than the request waiting for the rest until the request deadline (minutes).
 */

afterEach(async () => {
  vi.restoreAllMocks();
  await closeTestServers();
});

async function serve(built: TestApp): Promise<number> {
  return (await listenForTest(built.app)).port;
}

/** Sends the head and part of the body, waits, half-closes, and returns what came back. */
async function cutShort(port: number, built: TestApp, request: string): Promise<ClosedExchange> {
  const connection = await openRawConnection(port);
  connection.write(request);
  await delay(100);
  connection.endWriting();
  return afterServerCloses(connection, built);
}

const actions: RouteDefinition[] = [defineRoute({ path: '/profile', component: () => null, action: () => ({ saved: true }) })];

describe('a body the client stops sending before its end', () => {
  test.each([
    [
      'a form with a Content-Length',
      `POST /profile HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nname=abc`,
    ],
    [
      'a chunked form',
      `POST /profile HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n8\r\nname=abc\r\n`,
    ],
  ])('%s for an action gets the 400 page at once, and the connection closes', async (_case, request) => {
    const built = buildApp(actions);
    const port = await serve(built);
    const printed = watchConsoleError();
    expectOneClosingStatusPage(built, await cutShort(port, built, request), printed, 400, '400: Bad Request.');
  });

  test('cut short while an app middleware still waits before the body reader: 400 at once', async () => {
    const built = buildApp(actions, {
      middleware(router) {
        router.use(async (_req, _res, next) => {
          await delay(100);
          next();
        });
      },
    });
    const port = await serve(built);
    const connection = await openRawConnection(port);
    // Head, part of the body and the FIN in one go, while the middleware holds the request.
    connection.write(
      `POST /profile HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nname=abc`,
    );
    connection.endWriting();
    const closedAfterMs = await connection.closedWithin(2_000);
    connection.destroy();
    expect(closedAfterMs).toBeLessThan(2_000);
    expect(splitResponses(connection.received()).map((response) => response.status)).toEqual([400]);
  });

  test('a whole body followed at once by a half-close is answered as usual', async () => {
    const built = buildApp(actions);
    const port = await serve(built);
    const connection = await openRawConnection(port);
    connection.write(
      `POST /profile HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 8\r\n\r\nname=abc`,
    );
    connection.endWriting();
    await connection.closedWithin(2_000);
    connection.destroy();
    expect(splitResponses(connection.received()).map((response) => response.status)).toEqual([200]);
  });

  test('many posts on one kept-alive connection leave no listener behind on it', async () => {
    const built = buildApp(actions);
    const port = await serve(built);
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const connection = await openRawConnection(port);
      const post = `POST /profile HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 8\r\n\r\nname=abc`;
      for (let i = 1; i <= 12; i += 1) {
        connection.write(post);
        await waitFor(() => splitResponses(connection.received()).length === i, 2_000, `answer ${i}`);
      }
      connection.destroy();
      expect(splitResponses(connection.received()).every((response) => response.status === 200)).toBe(true);
      await delay(20);
      expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  test('a telemetry report cut short gets 400 at once, and the connection closes', async () => {
    const built = buildApp(unitRoutes(), { telemetry: { enabled: true } });
    const port = await serve(built);
    const printed = watchConsoleError();
    const request = `POST ${VITALS_ENDPOINT} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`;
    const { closedAfterMs, responses } = await cutShort(port, built, request);

    expect(closedAfterMs).toBeLessThan(2_000);
    expect(responses.map((response) => response.status)).toEqual([400]);
    expect(responses[0]?.complete).toBe(true);
    expect(printed).not.toHaveBeenCalled();
    expect(errorLines(built.logs)).toEqual([]);
  });
});
