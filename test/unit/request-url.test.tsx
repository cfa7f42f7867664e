import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { defineRoute, type LoadContext, type PageProps, type RouteDefinition } from '../../shared/api/route-definition.ts';
import type { AppOptions } from '../../server/app.ts';
import { buildApp, errorLines, LEVEL, type TestApp } from '../support/build-app.ts';
import { close, listen } from '../support/http-client.ts';
import { rawRequest, type RawResponse } from '../support/raw-http.ts';

/** What load saw as `request.url`, shown on the page. */
function Shown({ data }: PageProps<{ readonly url: string }>) {
  return <pre id="shown">{data.url}</pre>;
}

const echo = ({ request }: LoadContext) => ({ url: request.url });

const routes: readonly RouteDefinition[] = [
  // A head worked out per request: its canonical URL is the request's.
  defineRoute({ path: '/echo', component: Shown, load: echo, head: () => ({ title: 'Echo' }) }),
  // A catch-all: any path reaches it, `//host/...` included.
  defineRoute({ path: '/*rest', component: Shown, load: echo }),
];

function shownUrl(html: string): string | undefined {
  return /<pre id="shown">([^<]*)<\/pre>/.exec(html)?.[1]?.replaceAll('&amp;', '&');
}

function canonicalOf(html: string): string | undefined {
  return /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
}

function ogUrlOf(html: string): string | undefined {
  return /<meta property="og:url" content="([^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
}

/** An app on a loopback port, sent raw request lines: no client rewrites the target. */
function rawApp(options: Partial<Omit<AppOptions, 'routes' | 'logger'>>) {
  let built: TestApp;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    built = buildApp(routes, options);
    const listening = await listen(built.app);
    server = listening.server;
    port = Number(new URL(listening.origin).port);
  });
  afterAll(() => close(server));
  return {
    logs: () => built.logs,
    get(target: string, headers = 'Host: app.test\r\n', version = '1.1'): Promise<RawResponse> {
      return rawRequest(port, `GET ${target} HTTP/${version}\r\n${headers}Connection: close\r\n\r\n`);
    },
  };
}

describe('with a public origin, nothing the client sends moves the host of the absolute URLs', () => {
  const app = rawApp({ publicOrigin: new URL('https://shop.example.com') });

  test('an absolute-form target: request.url, canonical and og:url are on the public origin, with its path', async () => {
    const res = await app.get('http://evil.example/echo?q=1', 'Host: evil.example\r\n');
    expect(res.status).toBe(200);
    expect(shownUrl(res.body)).toBe('https://shop.example.com/echo?q=1');
    expect(canonicalOf(res.body)).toBe('https://shop.example.com/echo');
    expect(ogUrlOf(res.body)).toBe('https://shop.example.com/echo');
    expect(res.body).not.toContain('evil.example');
  });

  test('a path that starts with // is a path on the public origin, not a host', async () => {
    const res = await app.get('//evil.example/files/x?q=1');
    expect(res.status).toBe(200);
    expect(shownUrl(res.body)).toBe('https://shop.example.com//evil.example/files/x?q=1');
    expect(canonicalOf(res.body)).toBe('https://shop.example.com//evil.example/files/x');
    expect(ogUrlOf(res.body)).toBe('https://shop.example.com//evil.example/files/x');
  });

  test('an absolute-form target whose path starts with // keeps it as a path', async () => {
    const res = await app.get('http://evil.example//evil.example/files/x');
    expect(res.status).toBe(200);
    expect(shownUrl(res.body)).toBe('https://shop.example.com//evil.example/files/x');
    expect(canonicalOf(res.body)).toBe('https://shop.example.com//evil.example/files/x');
  });

  test('a backslash after the first slash is a path too', async () => {
    const res = await app.get('/\\evil.example/files/x');
    expect(res.status).toBe(200);
    expect(new URL(shownUrl(res.body) ?? '').host).toBe('shop.example.com');
    expect(new URL(canonicalOf(res.body) ?? '').host).toBe('shop.example.com');
  });

  test('the Host header plays no part', async () => {
    const res = await app.get('/echo', 'Host: evil.example:8443\r\n');
    expect(res.status).toBe(200);
    expect(shownUrl(res.body)).toBe('https://shop.example.com/echo');
  });
});

describe('without a public origin, the host is the validated Host header', () => {
  const app = rawApp({});

  test("an absolute-form target: the host of request.url is the Host header, the path the target's", async () => {
    const res = await app.get('http://evil.example/echo?q=1', 'Host: app.test:8080\r\n');
    expect(res.status).toBe(200);
    expect(shownUrl(res.body)).toBe('http://app.test:8080/echo?q=1');
    // No public origin: no canonical URL at all.
    expect(canonicalOf(res.body)).toBeUndefined();
  });

  test('a path that starts with // stays a path on the Host', async () => {
    const res = await app.get('//evil.example/files/x');
    expect(res.status).toBe(200);
    expect(shownUrl(res.body)).toBe('http://app.test//evil.example/files/x');
  });

  test.each([
    ['a port out of range', 'Host: app.test:99999\r\n', 'invalid Host header'],
    ['an escaped slash', 'Host: app%2F.test\r\n', 'invalid Host header'],
  ])('a Host that makes no URL (%s) gets the 400 page, not a 500', async (_case, headers, problem) => {
    const before = app.logs().length;
    const res = await app.get('/echo', headers);
    expect(res.status).toBe(400);
    expect(res.body).toContain('<title>400: Bad Request.</title>');
    const lines = app.logs().slice(before);
    expect(errorLines(lines)).toEqual([]);
    expect(lines.filter((line) => line.msg === 'malformed request')).toEqual([expect.objectContaining({ level: LEVEL.info, problem })]);
  });

  test('a request with no host at all (HTTP/1.0) that asks for its URL gets the 400 page', async () => {
    const res = await app.get('/echo', '', '1.0');
    expect(res.status).toBe(400);
    expect(res.body).toContain('<title>400: Bad Request.</title>');
  });
});

describe("behind a trusted proxy, the host and protocol are the proxy's", () => {
  const app = rawApp({ trustProxy: 'loopback' });

  test("request.url is on the forwarded host and protocol, with the target's path", async () => {
    const res = await app.get('//evil.example/files/x', 'Host: app.internal\r\nX-Forwarded-Host: www.example.org\r\nX-Forwarded-Proto: https\r\n');
    expect(res.status).toBe(200);
    expect(shownUrl(res.body)).toBe('https://www.example.org//evil.example/files/x');
  });

  test.each([
    ['a protocol that is not http or https', 'X-Forwarded-Host: www.example.org\r\nX-Forwarded-Proto: javascript\r\n'],
    ['a host with a path', 'X-Forwarded-Host: www.example.org/evil\r\nX-Forwarded-Proto: https\r\n'],
    ['a host with credentials', 'X-Forwarded-Host: user@evil.example\r\nX-Forwarded-Proto: https\r\n'],
  ])('forwarded headers that make no origin (%s) get the 400 page', async (_case, headers) => {
    const res = await app.get('/echo', `Host: app.internal\r\n${headers}`);
    expect(res.status).toBe(400);
    expect(res.body).toContain('<title>400: Bad Request.</title>');
  });
});
