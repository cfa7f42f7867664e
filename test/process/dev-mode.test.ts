import { spawn } from 'node:child_process';
import { utimes } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { waitFor } from '../support/build-app.ts';
import { freePort } from '../../scripts/lib/loopback.ts';

const ROOT = join(import.meta.dirname, '..', '..');
/** Every server dev.ts starts writes its "listening" line in two chunks, as a full pipe can. */
const SHORT_STDOUT_WRITE = pathToFileURL(join(import.meta.dirname, 'preload', 'short-stdout-write.mjs')).href;

test('npm run dev rebuilds on change, restarts the server with the same secrets (the visitor still signed in) and tells the page to reload, the "listening" line split in two', async () => {
  const [port, reloadPort] = [await freePort(), await freePort()];
  const dev = spawn(process.execPath, [join(ROOT, 'scripts', 'dev.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DEV_RELOAD_PORT: String(reloadPort), NODE_OPTIONS: `--import=${SHORT_STDOUT_WRITE}` },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => dev.once('exit', (code) => resolve(code)));
  let output = '';
  dev.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // The dev command prints the server's JSON lines pretty: `[12:00:00.000] INFO: listening {...}`.
  const listens = () => output.split('INFO: listening {').length - 1;
  let events = '';
  try {
    await waitFor(() => listens() >= 1, 20_000, 'the first start');
    const page = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    // The dev client comes from the dev command's side server, imported under the page's nonce.
    expect(page).toContain(`import("http://localhost:${reloadPort}/dev-client.js")`);
    // Development React is served, with source maps.
    expect(page).toMatch(/\/assets\/[\w-]+-[A-Z0-9]+\.js/);

    const sse = request(`http://127.0.0.1:${reloadPort}/events`, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (events += chunk));
    });
    sse.on('error', () => undefined);
    sse.end();
    await waitFor(() => events.includes(': connected'), 20_000, 'the reload stream');

    // A visitor who signs in before the save: the session and form token cookies of this start.
    const signIn = await fetch(`http://127.0.0.1:${port}/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin' },
      body: 'name=Devon',
    });
    expect(signIn.status).toBe(303);
    const session = signIn.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith('__session='))
      ?.split(';')[0];
    expect(session).toBeDefined();
    const token = (await fetch(`http://127.0.0.1:${port}/sign-in`)).headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith('csrf='))
      ?.split(';')[0];
    expect(token).toBeDefined();

    const before = listens();
    const now = new Date();
    // A framework module every page's bundle holds, so the test needs nothing of the app's.
    await utimes(join(ROOT, 'client', 'hydrate-page.tsx'), now, now);
    await waitFor(() => events.includes('event: reload') && listens() > before, 20_000, 'a rebuild, restart and reload');
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    // Not a component of the app's, so not applied in place: the terminal says why the page reloads, once.
    expect(output.split('\n').filter((line) => line === '[dev] client/hydrate-page.tsx: not a component of the pages: they reload once the server has restarted')).toHaveLength(1);
    // The restarted server signs with the kept secrets: still signed in, the form token still good.
    const after = await fetch(`http://127.0.0.1:${port}/sign-in`, { headers: { Cookie: `${session}; ${token}` } });
    // React marks the seam between the two text parts with an empty comment.
    expect(await after.text()).toMatch(/Signed in as (<!-- -->)?Devon/);
    expect(after.headers.getSetCookie().filter((cookie) => cookie.startsWith('csrf='))).toEqual([]);
    expect(output).not.toContain('CSRF_SECRET not set');
    // Pretty, one line per request: method, path, status and time, no JSON line left.
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/sign-in 200 \d+ ms$/m);
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: POST \/sign-in 303 \d+ ms$/m);
    expect(output).not.toMatch(/^\{"level"/m);
    sse.destroy();
  } finally {
    dev.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
}, 60_000);
