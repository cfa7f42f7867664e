import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp, errorLines, type TestApp } from '../support/build-app.ts';
import { close, listen } from '../support/http-client.ts';
import { rawRequest } from '../support/raw-http.ts';
import { fixtureRoutes } from '../support/pages.tsx';

describe('malformed requests get the 400 page', () => {
  let built: TestApp;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    built = buildApp(fixtureRoutes());
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
    ['no Host in HTTP/1.1', ''],
  ])('%s', async (_case, headers) => {
    const res = await get('/users/1', headers);
    expect(res.status).toBe(400);
    expect(res.body).toContain('<title>400: Bad Request.</title>');
    expect(res.head).toMatch(/content-security-policy: /i);
  });

  test.each(['a.example', 'a.example:8080', '127.0.0.1:3000', '[::1]:3000', 'xn--bcher-kva.example'])('accepts Host %s', async (host) => {
    const res = await get('/users/1', `Host: ${host}\r\n`);
    expect(res.status).toBe(200);
  });

  test.each(['/%E0%A4%A', '/%', '/%C0%AF', '/users/%FF%FE', '/%00', '/a%0Db', '/x?y=%E0%A4%A'])('undecodable or control bytes in %s', async (target) => {
    const res = await get(target, 'Host: a.example\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toContain('<h2>Bad Request.</h2>');
  });

  test('none of them is logged as an error', () => {
    expect(errorLines(built.logs)).toEqual([]);
  });
});
