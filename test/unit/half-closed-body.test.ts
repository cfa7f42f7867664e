import type { Server } from 'node:http';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { defineRoute, type RouteDefinition } from '../../shared/route-definition.ts';
import { VITALS_ENDPOINT } from '../../shared/telemetry.ts';
import { buildApp, delay, errorLines, waitFor, type TestApp } from '../support/build-app.ts';
import { close, listen } from '../support/http-client.ts';
import { unitRoutes } from '../support/pages.tsx';
import { openRawConnection, splitResponses } from '../support/raw-http.ts';

/**
 * A client that sends part of a body and then half-closes (a FIN: it will send nothing more)
 * has sent a request that can never be whole. It gets the 400 page at once and the connection
 * closes, rather than the request waiting for the rest until the request deadline (minutes).
 */

const servers: Server[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map(close));
});

async function serve(built: TestApp): Promise<number> {
  const { server, origin } = await listen(built.app);
  servers.push(server);
  return Number(new URL(origin).port);
}

/** Sends the head and part of the body, waits, half-closes, and returns what came back. */
async function cutShort(port: number, built: TestApp, request: string) {
  const connection = await openRawConnection(port);
  connection.write(request);
  await delay(100);
  connection.endWriting();
  const closedAfterMs = await connection.closedWithin(2_000);
  connection.destroy();
  await waitFor(() => built.logs.some((line) => line.msg === 'request completed' || line.msg === 'request aborted'), 2_000, 'the completion line');
  await delay(50);
  return { closedAfterMs, responses: splitResponses(connection.received()) };
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
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { closedAfterMs, responses } = await cutShort(port, built, request);

    expect(closedAfterMs).toBeLessThan(2_000);
    expect(responses.map((response) => response.status)).toEqual([400]);
    expect(responses[0]?.complete).toBe(true);
    expect(responses[0]?.head).toMatch(/\r\nConnection: close/i);
    expect(responses[0]?.body).toContain('<title>400: Bad Request.</title>');
    expect(printed).not.toHaveBeenCalled();
    expect(errorLines(built.logs)).toEqual([]);
    expect(built.logs.filter((line) => line.msg === 'request completed').map((line) => line.status)).toEqual([400]);
  });

  test('a telemetry report cut short gets 400 at once, and the connection closes', async () => {
    const built = buildApp(unitRoutes(), { telemetry: { enabled: true } });
    const port = await serve(built);
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const request = `POST ${VITALS_ENDPOINT} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`;
    const { closedAfterMs, responses } = await cutShort(port, built, request);

    expect(closedAfterMs).toBeLessThan(2_000);
    expect(responses.map((response) => response.status)).toEqual([400]);
    expect(responses[0]?.complete).toBe(true);
    expect(printed).not.toHaveBeenCalled();
    expect(errorLines(built.logs)).toEqual([]);
  });
});
