import type { Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { TELEMETRY_BODY_LIMIT_BYTES, VITALS_ENDPOINT } from '../../shared/protocol/telemetry.ts';
import { buildApp, errorLines, type TestApp } from '../support/build-app.ts';
import { closeTestServers, listenForTest } from '../support/http-client.ts';
import { unitRoutes } from '../support/pages.tsx';
import { openRawConnection, sendEndlessChunks, splitResponses } from '../support/raw-http.ts';

const VITAL = { name: 'LCP', value: 1234.5, rating: 'good', id: 'v5-1', route: '/users/:id', requestId: 'req-1' };

interface Listening {
  readonly port: number;
  /** The server's side of every connection, to read how many bytes it took in. */
  readonly sockets: Socket[];
}

afterEach(closeTestServers);

async function start(built: TestApp): Promise<Listening> {
  const { server, port } = await listenForTest(built.app);
  const sockets: Socket[] = [];
  server.on('connection', (socket: Socket) => sockets.push(socket));
  return { port, sockets };
}

function chunkedPost(path: string, contentType = 'application/json'): string {
  return `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${contentType}\r\nTransfer-Encoding: chunked\r\n\r\n`;
}

/** Sends an endless chunked body; returns the answers, when the server closed, and what it read. */
async function endlessUpload(listening: Listening, path: string) {
  const connection = await openRawConnection(listening.port);
  connection.write(chunkedPost(path));
  const sending = sendEndlessChunks(connection, 3_000);
  const closedAfterMs = await connection.closedWithin(3_000);
  await sending;
  connection.destroy();
  const bytesRead = listening.sockets.reduce((sum, socket) => sum + socket.bytesRead, 0);
  return { responses: splitResponses(connection.received()), closedAfterMs, bytesRead };
}

/** Nothing reads more than this of an endless body: the cap plus what is in flight when it answers. */
const READ_BOUND_BYTES = 4 * 1024 * 1024;

describe('bodies are counted as they arrive', () => {
  test('an endless chunked body to the telemetry endpoint gets 413 at 4 KiB, and the connection closes', async () => {
    const built = buildApp(unitRoutes(), { telemetry: { enabled: true } });
    const { responses, closedAfterMs, bytesRead } = await endlessUpload(await start(built), VITALS_ENDPOINT);
    expect(responses.map((response) => response.status)).toEqual([413]);
    expect(responses[0]?.head).toMatch(/\r\nConnection: close/i);
    expect(responses[0]?.body).toContain('<title>413: Payload Too Large.</title>');
    expect(closedAfterMs).toBeLessThan(1_000);
    expect(bytesRead).toBeLessThan(READ_BOUND_BYTES);
    expect(errorLines(built.logs)).toEqual([]);
  });

  test.each([
    ['an unknown path', '/no/such/page', {}, 404],
    ["a page's path", '/', {}, 405],
    ['the telemetry endpoint switched off', VITALS_ENDPOINT, {}, 404],
  ])('an endless chunked body to %s is answered at once and not read on', async (_case, path, options, status) => {
    const built = buildApp(unitRoutes(), options);
    const { responses, closedAfterMs, bytesRead } = await endlessUpload(await start(built), path);
    expect(responses.map((response) => response.status)).toEqual([status]);
    // RFC 9112 §9.6: the body was not read, so the connection cannot carry another request.
    expect(responses[0]?.head).toMatch(/\r\nConnection: close/i);
    expect(closedAfterMs).toBeLessThan(1_000);
    expect(bytesRead).toBeLessThan(READ_BOUND_BYTES);
  });

  /** A vital padded with trailing blanks (still valid JSON) to exactly `bytes`. */
  function vitalOfSize(bytes: number): string {
    const json = JSON.stringify(VITAL);
    return json + ' '.repeat(bytes - json.length);
  }

  test.each([
    [TELEMETRY_BODY_LIMIT_BYTES, 204],
    [TELEMETRY_BODY_LIMIT_BYTES + 1, 413],
  ])('a chunked telemetry body of exactly %i bytes gets %i', async (bytes, status) => {
    const built = buildApp(unitRoutes(), { telemetry: { enabled: true } });
    const { port } = await start(built);
    const connection = await openRawConnection(port);
    const body = vitalOfSize(bytes);
    // Two chunks, so the count must add them up rather than look at one.
    const half = Math.floor(bytes / 2);
    const frames = [body.slice(0, half), body.slice(half)].map((chunk) => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    connection.write(`${chunkedPost(VITALS_ENDPOINT)}${frames}0\r\n\r\n`);
    await connection.closedWithin(300);
    connection.destroy();
    expect(splitResponses(connection.received()).map((response) => response.status)).toEqual([status]);
  });

  test('a body read to its end keeps the connection for the next request', async () => {
    const built = buildApp(unitRoutes(), { telemetry: { enabled: true } });
    const { port } = await start(built);
    const connection = await openRawConnection(port);
    const body = JSON.stringify(VITAL);
    connection.write(`${chunkedPost(VITALS_ENDPOINT)}${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`);
    connection.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(await connection.closedWithin(2_000)).toBeLessThan(2_000);
    const [report, probe] = splitResponses(connection.received());
    expect(report?.status).toBe(204);
    expect(report?.head).toMatch(/\r\nConnection: keep-alive/i);
    expect(probe?.status).toBe(200);
  });
});
