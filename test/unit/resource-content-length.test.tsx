import { afterEach, describe, expect, test } from 'vitest';
import { data } from '../../shared/api/answers.ts';
import { defineRoute, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { buildApp, errorLines, LEVEL, waitFor, type LogLine } from '../support/build-app.ts';
import { closeTestServers, listenForTest } from '../support/http-client.ts';
import { openRawConnection, splitResponses, type RawConnection } from '../support/raw-http.ts';

/**
 * A resource route's own `Content-Length` (docs/responses.md#resource-routes), on the wire of a
 * kept-alive connection, where a wrong length would frame the bytes past it as a second answer:
 * a length that is none is refused with the 500 page before anything is sent, and a body is held
 * to the length its head declared: no byte past it is written, and one that ends short is cut.
 */

/** An answer whose body holds a whole second answer after its first two bytes. */
const FORGED = 'xxHTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 6\r\n\r\nforged';

/** Pushes a chunk into the body of /fed, which declares Content-Length 2. */
let pushBody: ((text: string) => void) | undefined;

const routes: RouteDefinition[] = [
  defineRoute({ path: '/length', load: ({ searchParams }) => new Response(FORGED, { headers: { 'Content-Length': searchParams.get('is') ?? '' } }) }),
  defineRoute({ path: '/exact', load: () => new Response('BODY', { headers: { 'Content-Length': '4', 'Content-Type': 'text/plain' } }) }),
  defineRoute({ path: '/short', load: () => new Response('abc', { headers: { 'Content-Length': '10' } }) }),
  defineRoute({ path: '/empty/:length', load: ({ params }) => new Response(null, { headers: { 'Content-Length': params.length ?? '' } }) }),
  defineRoute({
    path: '/fed',
    load: () => {
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          pushBody = (text) => controller.enqueue(encoder.encode(text));
        },
      });
      return new Response(body, { headers: { 'Content-Length': '2' } });
    },
  }),
  defineRoute({ path: '/next', load: () => new Response('NEXT') }),
  defineRoute({ path: '/page', component: () => <p>PAGE</p>, load: () => data({}, { headers: { 'Content-Length': '2' } }) }),
];

afterEach(async () => {
  await closeTestServers();
  pushBody = undefined;
});

async function connection(): Promise<{ readonly conn: RawConnection; readonly logs: LogLine[] }> {
  const { app, logs } = buildApp(routes);
  const { port } = await listenForTest(app);
  return { conn: await openRawConnection(port), logs };
}

/** Two requests on one kept-alive connection: `first`, then GET /next. */
function twoRequests(conn: RawConnection, first: string, method = 'GET'): void {
  conn.write(`${method} ${first} HTTP/1.1\r\nHost: app.test\r\n\r\nGET /next HTTP/1.1\r\nHost: app.test\r\n\r\n`);
}

function headerOf(head: string, name: string): string | undefined {
  return new RegExp(`\\r\\n${name}: *([^\\r\\n]*)`, 'i').exec(head)?.[1];
}

/** Waits for the answer to GET /next, the last on the connection. */
async function untilNext(conn: RawConnection): Promise<void> {
  await waitFor(() => conn.received().includes('NEXT'), 2_000, 'the answer to GET /next');
}

describe("a resource route's Content-Length", () => {
  test('a body that goes on past it: the bytes past it are never written, and the connection is cut, with one error line', async () => {
    const { conn, logs } = await connection();
    twoRequests(conn, '/fed');
    await waitFor(() => pushBody !== undefined, 2_000, 'the route to start');
    pushBody?.('xx');
    await waitFor(() => conn.received().endsWith('\r\n\r\nxx'), 2_000, 'the first two bytes');
    pushBody?.(FORGED.slice(2));
    expect(await conn.closedWithin(2_000)).toBeLessThan(Number.POSITIVE_INFINITY);
    const answers = splitResponses(conn.received());
    expect(answers).toEqual([expect.objectContaining({ status: 200, body: 'xx', complete: true })]);
    expect(headerOf(answers[0]?.head ?? '', 'content-length')).toBe('2');
    expect(conn.received()).not.toContain('forged');
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ route: '/fed', err: expect.objectContaining({ name: 'BodyLengthError' }) });
    expect(errors[0]?.err).toMatchObject({ message: 'Route /fed: its Response declared Content-Length 2 and its body went on past it; the connection was cut' });
  });

  test('a body that holds a second answer past the length in one chunk: nothing of it is written', async () => {
    const { conn, logs } = await connection();
    twoRequests(conn, '/length?is=2');
    expect(await conn.closedWithin(2_000)).toBeLessThan(Number.POSITIVE_INFINITY);
    expect(conn.received()).not.toContain('forged');
    expect(splitResponses(conn.received()).filter((answer) => answer.status === 200)).toEqual([]);
    expect(errorLines(logs)).toEqual([expect.objectContaining({ route: '/length', err: expect.objectContaining({ name: 'BodyLengthError' }) })]);
  });

  test('a body that ends short of it: the connection is cut, the answer incomplete, with one error line', async () => {
    const { conn, logs } = await connection();
    twoRequests(conn, '/short');
    expect(await conn.closedWithin(2_000)).toBeLessThan(Number.POSITIVE_INFINITY);
    const answers = splitResponses(conn.received());
    expect(answers).toEqual([expect.objectContaining({ status: 200, body: 'abc', complete: false })]);
    expect(errorLines(logs)).toEqual([
      expect.objectContaining({
        route: '/short',
        err: expect.objectContaining({
          name: 'BodyLengthError',
          message: 'Route /short: its Response declared Content-Length 10 and its body ended after 3 bytes; the connection was cut',
        }),
      }),
    ]);
  });

  test("the body's own length is sent as it is, and the connection goes on", async () => {
    const { conn, logs } = await connection();
    twoRequests(conn, '/exact');
    await untilNext(conn);
    const answers = splitResponses(conn.received());
    expect(answers.map(({ status, body, complete }) => ({ status, body, complete }))).toEqual([
      { status: 200, body: 'BODY', complete: true },
      { status: 200, body: 'NEXT', complete: true },
    ]);
    expect(headerOf(answers[0]?.head ?? '', 'content-length')).toBe('4');
    expect(headerOf(answers[0]?.head ?? '', 'transfer-encoding')).toBeUndefined();
    expect(logs.filter((line) => line.level >= LEVEL.warn)).toEqual([]);
  });

  test.each(['abc', '-1', '5,5', '5, 5', '1e1', '+2', '0x2', '', '99999999999999999999'])(
    'a Content-Length %j, which is no length: the 500 page before anything of the body, one error line, and the connection goes on',
    async (length) => {
      const { conn, logs } = await connection();
      twoRequests(conn, `/length?is=${encodeURIComponent(length)}`);
      await untilNext(conn);
      const answers = splitResponses(conn.received());
      expect(answers.map(({ status, complete }) => ({ status, complete }))).toEqual([
        { status: 500, complete: true },
        { status: 200, complete: true },
      ]);
      expect(answers[1]?.body).toBe('NEXT');
      expect(conn.received()).not.toContain('forged');
      expect(headerOf(answers[0]?.head ?? '', 'content-length')).not.toBe(length);
      const errors = errorLines(logs);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ route: '/length', err: expect.objectContaining({ name: 'ContentLengthError' }) });
      expect(errors[0]?.err).toMatchObject({
        message: `Route /length: its Response has Content-Length "${length}", which is no length: one whole number of bytes, or none and the body is sent chunked`,
      });
    },
  );

  test('no body but a length above 0: the 500 page, as the client would wait for bytes that never come', async () => {
    const { conn, logs } = await connection();
    twoRequests(conn, '/empty/5');
    await untilNext(conn);
    expect(splitResponses(conn.received()).map((answer) => answer.status)).toEqual([500, 200]);
    expect(errorLines(logs)).toEqual([expect.objectContaining({ err: expect.objectContaining({ name: 'ContentLengthError' }) })]);
  });

  test('no body and a length of 0: sent as it is', async () => {
    const { conn } = await connection();
    twoRequests(conn, '/empty/0');
    await untilNext(conn);
    const answers = splitResponses(conn.received());
    expect(answers.map(({ status, body }) => ({ status, body }))).toEqual([
      { status: 200, body: '' },
      { status: 200, body: 'NEXT' },
    ]);
    expect(headerOf(answers[0]?.head ?? '', 'content-length')).toBe('0');
  });

  test('HEAD: the length a GET would have is sent, with no body, and the connection goes on', async () => {
    const { conn, logs } = await connection();
    twoRequests(conn, '/empty/5', 'HEAD');
    await untilNext(conn);
    const received = conn.received();
    const [head, next] = received.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(headerOf(head ?? '', 'content-length')).toBe('5');
    // Straight after the HEAD answer's head: the next answer, no byte between.
    expect(next).toMatch(/^HTTP\/1\.1 200 /);
    expect(errorLines(logs)).toEqual([]);
  });

  test('HEAD of a body longer than its length: the head alone, and no byte of the body', async () => {
    const { conn } = await connection();
    twoRequests(conn, '/length?is=2', 'HEAD');
    await untilNext(conn);
    expect(conn.received()).not.toContain('forged');
    expect(conn.received().split('\r\n\r\n')[1]).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe("a page's data() Content-Length", () => {
  test('is left out with a warn line: the page is framed by the framework, and the connection goes on', async () => {
    const { conn, logs } = await connection();
    twoRequests(conn, '/page');
    await untilNext(conn);
    const answers = splitResponses(conn.received());
    expect(answers.map(({ status, complete }) => ({ status, complete }))).toEqual([
      { status: 200, complete: true },
      { status: 200, complete: true },
    ]);
    expect(answers[0]?.body).toContain('<p>PAGE</p>');
    expect(headerOf(answers[0]?.head ?? '', 'content-length')).not.toBe('2');
    expect(logs.filter((line) => line.level === LEVEL.warn)).toEqual([expect.objectContaining({ msg: 'app headers left out', route: '/page', headers: ['content-length'] })]);
  });
});
