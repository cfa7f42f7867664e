import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMetrics, type Metrics } from '../../server/observability/metrics.ts';
import { buildApp, errorLines, type TestApp } from '../support/build-app.ts';
import { close, listen } from '../support/http-client.ts';
import { openRawConnection, rawRequest, splitResponses } from '../support/raw-http.ts';
import { unitRoutes } from '../support/pages.tsx';

describe('malformed requests get the 400 page', () => {
  let built: TestApp;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    built = buildApp(unitRoutes());
    const listening = await listen(built.app);
    server = listening.server;
    port = Number(new URL(listening.origin).port);
  });
  afterAll(() => close(server));

  function get(target: string, headers: string): Promise<Awaited<ReturnType<typeof rawRequest>>> {
    return rawRequest(port, `GET ${target} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`);
  }

  test.each([
    ['two Host headers', 'Host: a.example\r\nHost: b.example\r\n'],
    ['two Host headers of different case', 'Host: a.example\r\nhost: a.example\r\n'],
    ['a Host with a space', 'Host: a example\r\n'],
    ['a Host with a slash', 'Host: a.example/evil\r\n'],
    ['a Host with userinfo', 'Host: user@a.example\r\n'],
    ['a Host with a bad port', 'Host: a.example:80x\r\n'],
    ['an empty Host', 'Host: \r\n'],
    ['a Host whose port is past 65535', 'Host: a.example:99999\r\n'],
    ['a Host whose port is 65536', 'Host: a.example:65536\r\n'],
    ['an IP-literal Host whose port is past 65535', 'Host: [::1]:70000\r\n'],
    ['a Host with a percent-encoded slash', 'Host: a%2F.example\r\n'],
    ['no Host in HTTP/1.1', ''],
  ])('%s', async (_case, headers) => {
    const res = await get('/users/1', headers);
    expect(res.status).toBe(400);
    expect(res.body).toContain('<title>400: Bad Request.</title>');
    expect(res.head).toMatch(/content-security-policy: /i);
  });

  test.each(['a.example', 'a.example:8080', 'a.example:65535', 'a%41.example', '127.0.0.1:3000', '127.0.0.1:39160', 'a.example:', '[::1]:3000', 'xn--bcher-kva.example'])(
    'accepts Host %s',
    async (host) => {
      const res = await get('/users/1', `Host: ${host}\r\n`);
      expect(res.status).toBe(200);
    },
  );

  test.each(['/%E0%A4%A', '/%', '/%C0%AF', '/users/%FF%FE', '/%00', '/a%0Db', '/x?y=%E0%A4%A'])('undecodable or control bytes in %s', async (target) => {
    const res = await get(target, 'Host: a.example\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toContain('<h2>Bad Request.</h2>');
  });

  test('a request target of 8,192 characters is read; one of 8,193 gets the 414 page', async () => {
    const target = (length: number) => `/users/1?pad=${'x'.repeat(length - '/users/1?pad='.length)}`;
    expect(target(8_192)).toHaveLength(8_192);
    const longest = await get(target(8_192), 'Host: a.example\r\n');
    expect(longest.status).toBe(200);
    const tooLong = await get(target(8_193), 'Host: a.example\r\n');
    expect(tooLong.status).toBe(414);
    expect(tooLong.body).toContain('<title>414: ');
  });

  test("a long path's log line holds its first 2,048 characters and how many more there were", async () => {
    const path = (length: number) => `/${'p'.repeat(length - 1)}`;
    const completion = (target: string) => built.logs.findLast((line) => line.msg === 'request completed' && String(line.path).startsWith(target.slice(0, 20)));
    expect((await get(`${path(9_000)}?token=x`, 'Host: a.example\r\n')).status).toBe(414);
    expect(completion(path(9_000))).toMatchObject({ status: 414, path: `${path(2_048)}…(+6952)` });
    expect((await get(path(2_048), 'Host: a.example\r\n')).status).toBe(404);
    expect(completion(path(2_048))).toMatchObject({ status: 404, path: path(2_048) });
  });

  test('none of them is logged as an error', async () => {
    // Its own requests, counted: run alone (-t), it must not pass on an empty log.
    const before = built.logs.length;
    const answers = [
      await get('/users/1', 'Host: a.example\r\nHost: b.example\r\n'),
      await get('/users/1', 'Host: a example\r\n'),
      await get('/users/1', ''),
      await get('/%E0%A4%A', 'Host: a.example\r\n'),
      await get('/a%0Db', 'Host: a.example\r\n'),
    ];
    expect(answers.map((res) => res.status)).toEqual([400, 400, 400, 400, 400]);
    const lines = built.logs.slice(before);
    expect(lines.filter((line) => line.msg === 'request completed' && line.status === 400)).toHaveLength(answers.length);
    expect(errorLines(lines)).toEqual([]);
  });
});

describe('a request target the router cannot read still meets the app', () => {
  let built: TestApp;
  let metrics: Metrics;
  let server: Server;
  let port: number;
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);

  beforeAll(async () => {
    metrics = await createMetrics({ processMetrics: false });
    built = buildApp(unitRoutes(), { metrics });
    const listening = await listen(built.app);
    server = listening.server;
    port = Number(new URL(listening.origin).port);
    process.on('warning', onWarning);
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await close(server);
  });

  // url.parse (under Express's router) throws on these, so before the check the router skipped
  // every middleware and answered its bare "Cannot GET".
  test.each([
    ['http://[::1/x', '/x'],
    ['http://a@[/', '/'],
    ['http://[::1]:x/', '/'],
    ['http://', '/'],
  ])('GET %s: the 400 page, a request id, security headers, a log line (its path without the authority) and a metric', async (target, path) => {
    const res = await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.body).toContain('<title>400: Bad Request.</title>');
    expect(res.head).toMatch(/\r\ncontent-security-policy: /i);
    expect(res.head).toMatch(/\r\nx-content-type-options: nosniff/i);
    const requestId = /\r\nX-Request-Id: ([^\r\n]+)/i.exec(res.head)?.[1];
    expect(requestId).toBeDefined();
    const lines = built.logs.filter((line) => line.reqId === requestId);
    expect(lines.map((line) => line.msg)).toEqual(['malformed request', 'request completed']);
    expect(lines[1]).toMatchObject({ status: 400, path });
    expect(warnings.filter((warning) => warning.name === 'DeprecationWarning')).toEqual([]);
  });

  test('they are counted', async () => {
    const series = await metrics.registry.getSingleMetricAsString('http_requests_total');
    expect(series).toContain('http_requests_total{route="unmatched",method="GET",status="400"} 4');
  });

  test('the body limit applies: a 50 MB body is refused before it is sent, and the connection closes', async () => {
    const connection = await openRawConnection(port);
    connection.write('POST http://[::1/x HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 52428800\r\n\r\n');
    const closedAfterMs = await connection.closedWithin(2_000);
    connection.destroy();
    expect(closedAfterMs).toBeLessThan(2_000);
    const [answer, ...rest] = splitResponses(connection.received());
    expect(rest).toEqual([]);
    expect(answer?.status).toBeGreaterThanOrEqual(400);
    expect(answer?.head).toMatch(/\r\nConnection: close/i);
    expect(answer?.body).toContain(`<title>${answer?.status}: `);
  });

  test('none of them is logged as an error', async () => {
    // Its own requests, counted: run alone (-t), it must not pass on an empty log.
    const before = built.logs.length;
    for (const target of ['http://[::1/x', 'http://']) {
      const res = await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(res.status).toBe(400);
    }
    const lines = built.logs.slice(before);
    expect(lines.filter((line) => line.msg === 'request completed' && line.status === 400)).toHaveLength(2);
    expect(errorLines(lines)).toEqual([]);
  });
});
