import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { rawRequest } from '../support/raw-http.ts';
import { startWithStderr, type StartedEntry } from '../support/start-with-stderr.ts';

/** The product's own entry, as `npm start` runs it: a bundle, which Node does not spare its deprecation warnings as it spares code in node_modules. */
const MAIN_ENTRY = join(import.meta.dirname, '..', '..', 'dist', 'server', 'main.js');

const running: StartedEntry[] = [];
afterAll(() => Promise.all(running.map((server) => server.stop())));

describe('request targets the router would hand to url.parse', () => {
  test('an absolute-form target and a fragment are answered from their path, and Node prints no warning on stderr', async () => {
    const server = await startWithStderr(MAIN_ENTRY, { PORT: '0', HOST: '127.0.0.1' });
    running.push(server);
    const port = Number(new URL(server.origin).port);
    for (const target of ['http://localhost/', 'http://user:secret@localhost/guestbook?x=1', '/guestbook#section']) {
      const answer = await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect({ target, status: answer.status }).toEqual({ target, status: 200 });
    }
    // Before, the first of these printed DEP0169 (url.parse) on stderr, as text among the JSON lines.
    expect(server.stderr()).toBe('');
  });
});
