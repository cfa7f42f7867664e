import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLogger } from '../../server/observability/logger.ts';
import { routes } from '../support/fixture-server-routes.tsx';
import { buildApp, errorLines, type TestApp } from '../support/build-app.ts';
import { close, getTimed, listen } from '../support/http-client.ts';
import { rawRequest } from '../support/raw-http.ts';

interface HostileCase {
  readonly name: string;
  /** The bytes sent, exactly: no HTTP client gets to normalise them. */
  readonly raw: string;
  readonly status: number;
}

const corpus: readonly HostileCase[] = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'support', 'hostile-corpus.json'), 'utf8'));

/** A V8 stack frame, as an error page must never show one. */
const STACK_FRAME = /\n\s+at .+:\d+:\d+/;

function header(head: string, name: string): string | undefined {
  return new RegExp(`\r\n${name}: ([^\r\n]*)`, 'i').exec(head)?.[1];
}

/**
 * Every refusal, the app's status page or the parser's plain line, carries the fixed headers:
 * never stored by a cache (a 400 must not be kept under a year-long asset URL), never sniffed,
 * helmet's set, and a request id to find its log line by.
 */
function expectFixedHeaders(head: string): void {
  expect(header(head, 'Cache-Control')).toMatch(/\bno-store\b/);
  expect(header(head, 'X-Content-Type-Options')).toBe('nosniff');
  expect(header(head, 'Strict-Transport-Security')).toBe('max-age=31536000; includeSubDomains');
  expect(header(head, 'X-Frame-Options')).toBe('SAMEORIGIN');
  expect(header(head, 'X-Request-Id')).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
}

describe(`the hostile-request corpus (${corpus.length} cases)`, () => {
  let built: TestApp;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    built = buildApp(routes);
    // The server's own lines (parser refusals) go where the app's go.
    const logger = createLogger({ level: 'debug', destination: { write: (line: string) => built.logs.push(JSON.parse(line)) } });
    const listening = await listen(built.app, { headersTimeoutMs: 5_000, requestTimeoutMs: 10_000, logger });
    server = listening.server;
    port = Number(new URL(listening.origin).port);
  });
  afterAll(() => close(server));

  test.each(corpus.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
    const res = await rawRequest(port, entry.raw);
    expect(res.status).toBe(entry.status);
    expect(res.body).not.toMatch(STACK_FRAME);
    expect(res.body).not.toMatch(/\b(?:TypeError|RangeError|SyntaxError|URIError)\b/);
    if (res.status >= 400 && /content-type: text\/html/i.test(res.head)) {
      expect(res.body).toContain(`<title>${res.status}: `);
    }
    if (res.status >= 400) expectFixedHeaders(res.head);
  });

  test("the parser's plain answers carry a status page's Cache-Control and a fresh request id, named in their log line", async () => {
    const page = await rawRequest(port, 'GET /no/such/page HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    const broken = 'GET / HTTP/1.1\r\nHost: localhost\r\nno colon here\r\n\r\n';
    const [first, second] = await Promise.all([rawRequest(port, broken), rawRequest(port, broken)]);
    for (const bare of [first, second]) {
      expect(bare.status).toBe(400);
      expect(bare.head).toMatch(/\r\nContent-Type: text\/plain; charset=utf-8/i);
      expect(header(bare.head, 'Cache-Control')).toBe(header(page.head, 'Cache-Control'));
      const requestId = header(bare.head, 'X-Request-Id');
      expect(built.logs.find((line) => line.reqId === requestId)).toMatchObject({ msg: 'request refused by the HTTP parser', status: 400 });
    }
    expect(header(first?.head ?? '', 'X-Request-Id')).not.toBe(header(second?.head ?? '', 'X-Request-Id'));
  });

  test('leaves the server answering / normally and no error line in the log', async () => {
    const res = await getTimed(`http://127.0.0.1:${port}/`);
    expect(res.status).toBe(200);
    expect(res.body).toContain('<main');
    expect(errorLines(built.logs)).toEqual([]);
  });
});
