import { afterAll, describe, expect, test } from 'vitest';
import { rawRequest } from '../support/raw-http.ts';
import { startWithStderr, type StartedEntry } from '../support/start-with-stderr.ts';
import { FIXTURE_MAIN_ENTRY } from '../support/fixture-server-build.ts';

// The product's own entry (built around the fixture app), as `npm start` runs it: a bundle, which
// Node does not spare its deprecation warnings as it spares code in node_modules.
const running: StartedEntry[] = [];
afterAll(() => Promise.all(running.map((server) => server.stop())));

describe('request targets the router would hand to url.parse', () => {
  test('an absolute-form target and a fragment are answered from their path, and Node prints no warning on stderr', async () => {
    const server = await startWithStderr(FIXTURE_MAIN_ENTRY, { PORT: '0', HOST: '127.0.0.1' });
    running.push(server);
    const port = Number(new URL(server.origin).port);
    for (const target of ['http://localhost/', 'http://user:secret@localhost/nav/a?x=1', '/nav/a#section']) {
      const answer = await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect({ target, status: answer.status }).toEqual({ target, status: 200 });
    }
    // Before, the first of these printed DEP0169 (url.parse) on stderr, as text among the JSON lines.
    expect(server.stderr()).toBe('');
  });

  test('an asterisk-form target gets its answer (204 with Allow for OPTIONS, 400 otherwise), and Node prints no warning on stderr', async () => {
    const server = await startWithStderr(FIXTURE_MAIN_ENTRY, { PORT: '0', HOST: '127.0.0.1' });
    running.push(server);
    const port = Number(new URL(server.origin).port);
    const options = await rawRequest(port, 'OPTIONS * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(options.status).toBe(204);
    expect(options.head).toMatch(/\r\nallow: GET, HEAD\r\n/i);
    const get = await rawRequest(port, 'GET * HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(get.status).toBe(400);
    // Before, each printed DEP0169 (url.parse): the router read `*` with it.
    expect(server.stderr()).toBe('');
  });
});
