import { afterEach, describe, test, vi, type MockInstance } from 'vitest';
import { ACTION_BODY_LIMIT_BYTES } from '../../server/actions/form-body.ts';
import { defineRoute, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { TELEMETRY_BODY_LIMIT_BYTES, VITALS_ENDPOINT } from '../../shared/protocol/telemetry.ts';
import { buildApp, type TestApp } from '../support/build-app.ts';
import { afterServerCloses, expectOneClosingStatusPage, watchConsoleError, type ClosedExchange } from '../support/closing-answers.ts';
import { closeTestServers, listenForTest } from '../support/http-client.ts';
import { unitRoutes } from '../support/pages.tsx';
import { openRawConnection } from '../support/raw-http.ts';

/**
 * A body over its cap (server/http/body-limit.ts for telemetry, server/actions/form-body.ts for
 * actions) is answered with one 413, and that is the request's end: bytes that arrive after the
 * answer, or the body's own end, never hand the request on a second time. A second hand-over
 * reaches Express's last-resort handler, which prints the error to stderr with console.error (a
 * stack trace outside the JSON log, once per request a client chooses to send) and destroys the
 * socket.
 */

afterEach(async () => {
  vi.restoreAllMocks();
  await closeTestServers();
});

async function serve(built: TestApp): Promise<number> {
  return (await listenForTest(built.app)).port;
}

/** One chunk frame of RFC 9112 §7.1. */
function frame(text: string): string {
  return `${text.length.toString(16)}\r\n${text}\r\n`;
}

/** Sends `head` and the chunks, last chunk included, in one write, so the server has the whole body at hand when it answers. */
async function postWhole(port: number, built: TestApp, head: string, chunks: readonly string[]): Promise<ClosedExchange> {
  const connection = await openRawConnection(port);
  connection.write(`${head}${chunks.map(frame).join('')}0\r\n\r\n`);
  return afterServerCloses(connection, built);
}

/** One 413 page, answered once (expectOneClosingStatusPage). */
function expectOne413(built: TestApp, sent: ClosedExchange, printed: MockInstance): void {
  expectOneClosingStatusPage(built, sent, printed, 413, '413: Payload Too Large.');
}

describe('a body over its cap is answered once', () => {
  test('telemetry: a chunk past the cap gets 413, and the chunks after it and the end of the body are not read into a second answer', async () => {
    const built = buildApp(unitRoutes(), { telemetry: { enabled: true } });
    const port = await serve(built);
    const printed = watchConsoleError();
    const head = `POST ${VITALS_ENDPOINT} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    // The first chunk alone is past the cap; two more follow it, then the body ends.
    const sent = await postWhole(port, built, head, [' '.repeat(TELEMETRY_BODY_LIMIT_BYTES + 1), ' '.repeat(100), ' '.repeat(100)]);

    expectOne413(built, sent, printed);
  });

  const actions: RouteDefinition[] = [defineRoute({ path: '/profile', component: () => null, action: () => ({ saved: true }) })];

  test.each([
    ['a form', 'application/x-www-form-urlencoded', 'name='],
    ['JSON', 'application/json', '{"name":"'],
  ])('an action: %s past the cap gets 413, and the parser reading off the rest does not answer a second time', async (_case, type, start) => {
    const built = buildApp(actions);
    const port = await serve(built);
    const printed = watchConsoleError();
    const head = `POST /profile HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: same-origin\r\nContent-Type: ${type}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const sent = await postWhole(port, built, head, [start + 'a'.repeat(ACTION_BODY_LIMIT_BYTES + 1 - start.length), 'a'.repeat(100)]);

    expectOne413(built, sent, printed);
  });
});
