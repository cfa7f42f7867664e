import { Suspense, use } from 'react';
import { afterEach, describe, expect, test } from 'vitest';
import type { PageProps, RouteDefinition } from '../../shared/api/route-definition.ts';
import { buildApp, errorLines, type TestApp, waitFor } from '../support/build-app.ts';
import { closeTestServers, DESKTOP_CHROME, listenForTest } from '../support/http-client.ts';
import { unitRoutes } from '../support/pages.tsx';
import { openRawConnection, splitResponses } from '../support/raw-http.ts';
import { createSettleAfter } from '../support/settle-after.ts';

const after = createSettleAfter<string>();

/** Keyed by the request's params object, which stays the same while Fizz retries the boundary. */
function LateContent({ params }: { readonly params: object }) {
  return <p>{use(after(params, 300, () => 'LATE-CONTENT-ARRIVED'))}</p>;
}

/** The shell at once, one boundary 300 ms later, and no `load`. */
function StreamingPage({ params }: PageProps) {
  return (
    <main>
      <h1>STREAMING-SHELL</h1>
      <Suspense fallback={<p>LATE-FALLBACK</p>}>
        <LateContent params={params} />
      </Suspense>
    </main>
  );
}

const routes: readonly RouteDefinition[] = [...unitRoutes(), { path: '/streaming', component: StreamingPage }];

afterEach(closeTestServers);

async function start(built: TestApp): Promise<number> {
  return (await listenForTest(built.app)).port;
}

describe('one connection, one framing', () => {
  test('a broken request pipelined behind a streaming page is never written into that page', async () => {
    const built = buildApp(routes);
    const port = await start(built);
    const connection = await openRawConnection(port);
    connection.write(`GET /streaming HTTP/1.1\r\nHost: localhost\r\nUser-Agent: ${DESKTOP_CHROME}\r\n\r\n`);
    // The shell (status line and headers included) is on the wire; the boundary is still pending.
    await waitFor(() => connection.received().includes('LATE-FALLBACK'), 3_000, 'the shell on the wire');
    expect(connection.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(connection.received()).not.toContain('LATE-CONTENT-ARRIVED');
    connection.write('GET / HTTP/1.1\r\nHost: localhost\r\nthis line has no colon\r\n\r\n');
    expect(await connection.closedWithin(3_000)).toBeLessThan(3_000);

    const [page, ...rest] = splitResponses(connection.received());
    expect(page?.status).toBe(200);
    // The page arrives whole: its chunked body ends with the last chunk and holds the boundary.
    expect(page?.complete).toBe(true);
    expect(page?.body).toContain('LATE-CONTENT-ARRIVED');
    expect(page?.body).not.toContain('HTTP/1.1 400');
    // Then, in order, the broken request's own answer, and the connection closes.
    expect(rest.map((response) => response.status)).toEqual([400]);
    expect(rest[0]?.head).toMatch(/\r\nConnection: close/i);
    expect(errorLines(built.logs)).toEqual([]);
  });

  test.each([
    ['a Transfer-Encoding that is not chunked', 'POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: xchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n'],
    ['a bare LF in a chunk extension', 'POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n5;a=b\nhello\r\n0\r\n\r\n'],
    ['a chunk size that overflows', 'POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\nhello\r\n0\r\n\r\n'],
    ['a broken chunk on an unknown path', 'POST /nowhere HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n'],
  ])('%s gets exactly one answer, and the connection closes (RFC 9112 §6.3)', async (_case, raw) => {
    const built = buildApp(routes);
    const port = await start(built);
    const connection = await openRawConnection(port);
    connection.write(raw);
    expect(await connection.closedWithin(2_000)).toBeLessThan(2_000);

    const responses = splitResponses(connection.received());
    expect(responses.map((response) => response.status)).toHaveLength(1);
    expect(responses[0]?.status).toBeGreaterThanOrEqual(400);
    expect(responses[0]?.head).toMatch(/\r\nConnection: close/i);
    expect(errorLines(built.logs)).toEqual([]);
  });
});
