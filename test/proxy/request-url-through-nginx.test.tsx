import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '../../scripts/lib/loopback.ts';
import { defineRoute, type PageProps } from '../../shared/api/route-definition.ts';
import { buildApp } from '../support/build-app.ts';
import { close, listen } from '../support/http-client.ts';
import { openRawConnection, splitResponses, type FramedResponse } from '../support/raw-http.ts';
import { startNginx, type RunningNginx } from './nginx.ts';

/** nginx connects from this address (proxy_bind); the app trusts only it, as deploy/nginx/app.conf asks. */
const PROXY_ADDRESS = '127.0.0.2';

function Shown({ data }: PageProps<{ readonly url: string }>) {
  return <pre id="shown">{data.url}</pre>;
}

// A catch-all: every path reaches it, `//host/...` included.
const routes = [defineRoute({ path: '/*rest', component: Shown, load: ({ request }) => ({ url: request.url }) })];

function shownUrl(html: string): string | undefined {
  return /<pre id="shown">([^<]*)<\/pre>/.exec(html)?.[1];
}

function canonicalOf(html: string): string | undefined {
  return /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1];
}

/** The app in this process behind the shipped nginx configuration (both upstreams: this app). */
function behindNginx(publicOrigin: URL | undefined) {
  let server: Server;
  let nginx: RunningNginx;
  let port: number;
  beforeAll(async () => {
    const { app } = buildApp(routes, { trustProxy: PROXY_ADDRESS, ...(publicOrigin === undefined ? {} : { publicOrigin }) });
    const listening = await listen(app);
    server = listening.server;
    const appPort = Number(new URL(listening.origin).port);
    port = await freePort();
    nginx = await startNginx({ port, upstreams: [appPort, appPort], locationExtras: `proxy_bind ${PROXY_ADDRESS};` });
  });
  afterAll(async () => {
    await nginx?.stop();
    if (server !== undefined) await close(server);
  });
  // Written by hand, so no client turns the target into another; the socket stays open for
  // writing, as nginx takes a half-closed client for one that went away.
  return async function get(target: string): Promise<FramedResponse> {
    const connection = await openRawConnection(port);
    connection.write(`GET ${target} HTTP/1.1\r\nHost: shop.example.com\r\nConnection: close\r\n\r\n`);
    await connection.closedWithin(5_000);
    connection.destroy();
    const [response] = splitResponses(connection.received());
    if (response === undefined) throw new Error(`no answer through nginx to ${target}`);
    return response;
  };
}

describe('with PUBLIC_ORIGIN, behind the shipped nginx configuration', () => {
  const get = behindNginx(new URL('https://shop.example.com'));

  test('a path that starts with // stays a path on the public origin: request.url and canonical', async () => {
    const res = await get('//evil.example/files/x');
    expect(res.status).toBe(200);
    expect(shownUrl(res.body)).toBe('https://shop.example.com//evil.example/files/x');
    expect(canonicalOf(res.body)).toBe('https://shop.example.com//evil.example/files/x');
  });

  test("an absolute-form target naming another host: nginx forwards that host, the app keeps the public origin's", async () => {
    const res = await get('http://evil.example/files/x');
    expect(res.status).toBe(200);
    expect(shownUrl(res.body)).toBe('https://shop.example.com/files/x');
    expect(canonicalOf(res.body)).toBe('https://shop.example.com/files/x');
  });
});

describe('without PUBLIC_ORIGIN, behind the shipped nginx configuration', () => {
  const get = behindNginx(undefined);

  test("a path that starts with // stays a path on the host nginx forwards (the client's Host)", async () => {
    const res = await get('//evil.example/files/x');
    expect(res.status).toBe(200);
    expect(shownUrl(res.body)).toBe('http://shop.example.com//evil.example/files/x');
  });
});
