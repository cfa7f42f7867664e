import { request } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startDevServer, type DevServer } from '../../scripts/dev/dev-server.ts';
import { freePort, LOOPBACK } from '../../scripts/lib/loopback.ts';
import { rawRequest } from '../support/raw-http.ts';

/** The dev command's side server, on the wire: what the pages fetch from it and what they send it. */
let server: DevServer;
let origin: string;
let port: number;
const refusals: [number, string][] = [];
beforeAll(async () => {
  port = await freePort();
  server = startDevServer({
    port,
    devClient: 'export const devClient = 1;',
    onRefused: (update, reason) => refusals.push([update, reason]),
    onListenError: (error) => {
      throw error;
    },
  });
  origin = `http://${LOOPBACK}:${port}`;
  // Listening is the next turn's: ask until it answers.
  for (
    let tries = 0;
    tries < 50 &&
    !(await fetch(`${origin}/dev-client.js`).then(
      (res) => res.ok,
      () => false,
    ));
    tries += 1
  )
    await new Promise((resolve) => setTimeout(resolve, 10));
});
afterAll(() => server.close());

/** The first `count` events of the stream, as `event: data` lines, once they have come. */
function firstEvents(count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}/events`, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        const events = [...text.matchAll(/event: (\S+)\ndata: (.*)\n\n/g)].map(([, event, data]) => `${event}: ${data}`);
        if (events.length >= count) {
          req.destroy();
          resolve(events);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

test('serves the dev client and the hot modules it hosts as JavaScript any origin may import, and 404 for anything else', async () => {
  const client = await fetch(`${origin}/dev-client.js`);
  expect(client.status).toBe(200);
  expect(client.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(client.headers.get('access-control-allow-origin')).toBe('*');
  expect(await client.text()).toBe('export const devClient = 1;');
  const url = server.host('app/pages/home.tsx', 'export default 1;');
  expect(url).toMatch(new RegExp(`^http://localhost:${port}/hot/\\d+/app-pages-home.tsx.js$`));
  expect(await (await fetch(url.replace('localhost', LOOPBACK))).text()).toBe('export default 1;');
  expect((await fetch(`${origin}/hot/999/nothing.js`)).status).toBe(404);
});

test('a page that connects while the build fails gets the errors at once; one that connected gets them, then build-ok', async () => {
  const listening = firstEvents(3);
  await new Promise((resolve) => setTimeout(resolve, 50));
  server.buildErrors([{ text: 'Expected ";"', file: 'app/pages/home.tsx', line: 3, column: 7, frame: '3 │ x y' }]);
  const late = await firstEvents(1);
  expect(late).toEqual(['build-error: [{"text":"Expected \\";\\"","file":"app/pages/home.tsx","line":3,"column":7,"frame":"3 │ x y"}]']);
  server.buildErrors(undefined);
  server.hot({ id: 1, modules: [{ path: '/app/pages/home.tsx', url: 'http://localhost/hot/1/home.js' }] });
  expect((await listening).map((event) => event.split(':')[0])).toEqual(['build-error', 'build-ok', 'hot']);
});

test("a page's refusal is taken once well formed: 204; anything else 400, past 4 KiB 413, another method 405, a bad target 400", async () => {
  const post = (body: string) => fetch(`${origin}/refused`, { method: 'POST', body });
  expect((await post(JSON.stringify({ update: 3, reason: 'its exports changed (x added)' }))).status).toBe(204);
  expect(refusals).toEqual([[3, 'its exports changed (x added)']]);
  expect((await post('{"update":"3","reason":1}')).status).toBe(400);
  expect((await post('not json')).status).toBe(400);
  expect((await post(JSON.stringify({ update: 4, reason: 'x'.repeat(5_000) }))).status).toBe(413);
  expect(refusals).toHaveLength(1);
  const put = await fetch(`${origin}/refused`, { method: 'PUT' });
  expect([put.status, put.headers.get('allow')]).toEqual([405, 'POST']);
  expect((await fetch(`${origin}/events`, { method: 'DELETE' })).status).toBe(405);
  expect((await rawRequest(port, 'GET http://[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status).toBe(400);
});
