import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { routes } from '../../shared/routes.ts';
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

describe(`the hostile-request corpus (${corpus.length} cases)`, () => {
  let built: TestApp;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    built = buildApp(routes);
    const listening = await listen(built.app, { headersTimeoutMs: 5_000, requestTimeoutMs: 10_000 });
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
  });

  test('leaves the server answering / normally and no error line in the log', async () => {
    const res = await getTimed(`http://127.0.0.1:${port}/`);
    expect(res.status).toBe(200);
    expect(res.body).toContain('<main');
    expect(errorLines(built.logs)).toEqual([]);
  });
});
