import { afterEach, describe, expect, test } from 'vitest';
import { TELEMETRY_BODY_LIMIT_BYTES, VITALS_ENDPOINT } from '../../shared/protocol/telemetry.ts';
import { buildApp, type TestApp } from '../support/build-app.ts';
import { closeTestServers, listenForTest } from '../support/http-client.ts';
import { unitRoutes } from '../support/pages.tsx';
import { openRawConnection, rawRequest, splitResponses } from '../support/raw-http.ts';

/**
 * The telemetry endpoints' body limit (server/http/body-limit.ts) as a client declares it in
 * `Content-Length`: exactly the limit is read; over it is refused before any byte of the body.
 * (The chunked cases are in body-limit.test.ts.)
 */

const VITAL = { name: 'LCP', value: 1234.5, rating: 'good', id: 'v5-1', route: '/', requestId: 'req-1' };

afterEach(closeTestServers);

async function serve(built: TestApp): Promise<number> {
  return (await listenForTest(built.app)).port;
}

function head(length: number): string {
  return `POST ${VITALS_ENDPOINT} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n`;
}

describe('a telemetry body by its declared length', () => {
  test(`exactly ${TELEMETRY_BODY_LIMIT_BYTES} bytes is read and accepted: 204, the report logged`, async () => {
    const built = buildApp(unitRoutes(), { telemetry: { enabled: true } });
    const json = JSON.stringify(VITAL);
    // Trailing blanks keep it valid JSON.
    const body = json + ' '.repeat(TELEMETRY_BODY_LIMIT_BYTES - json.length);
    const res = await rawRequest(await serve(built), `${head(TELEMETRY_BODY_LIMIT_BYTES)}Connection: close\r\n\r\n${body}`);
    expect(res.status).toBe(204);
    expect(built.logs.filter((line) => line.msg === 'web vital')).toEqual([expect.objectContaining({ vital: expect.objectContaining({ name: 'LCP', id: 'v5-1' }) })]);
  });

  test('one byte over gets 413 at once, before any byte of the body is sent, and the connection closes', async () => {
    const built = buildApp(unitRoutes(), { telemetry: { enabled: true } });
    const connection = await openRawConnection(await serve(built));
    // The head alone: the server must answer without waiting for a body that never comes.
    connection.write(`${head(TELEMETRY_BODY_LIMIT_BYTES + 1)}\r\n`);
    const closedAfterMs = await connection.closedWithin(1_000);
    connection.destroy();
    expect(closedAfterMs).toBeLessThan(1_000);
    const responses = splitResponses(connection.received());
    expect(responses.map((response) => response.status)).toEqual([413]);
    expect(responses[0]?.head).toMatch(/\r\nConnection: close/i);
    expect(responses[0]?.body).toContain('<title>413: Payload Too Large.</title>');
  });
});
