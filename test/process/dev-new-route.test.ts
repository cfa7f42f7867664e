import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type DevApp, startDevApp } from '../support/dev-app.ts';

/**
 * While the dev command runs, a route added to the table gets its page built into the client
 * (its entry in the manifest, its script served), and later saves keep it: the dev command
 * follows the route table after every server build (scripts/dev.ts).
 */
let dev: DevApp;

beforeAll(async () => {
  dev = await startDevApp();
}, 60_000);

afterAll(async () => {
  await dev?.stop();
});

/** How many times the dev command's server has said it listens. */
function listens(): number {
  return dev.output().split('INFO: listening {').length - 1;
}

/** Resolves once `check` holds, polling; fails after 20 s naming `what`. */
async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 20 s\n${dev.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The page's own script, as its document names it, and whether it is served. */
async function pageScript(path: string): Promise<{ readonly status: number; readonly html: string; readonly script: number | undefined }> {
  const res = await fetch(`${dev.origin}${path}`);
  const html = await res.text();
  // The page's entry, which its bootstrap imports: named for the page module, hashed.
  const src = /\/assets\/added-[A-Z0-9]+\.js/.exec(html)?.[0];
  const script = src === undefined ? undefined : (await fetch(`${dev.origin}${src}`)).status;
  return { status: res.status, html, script };
}

describe('a route added while the dev command runs', () => {
  test('is built into the client and served, and stays after a later save', async () => {
    expect((await fetch(`${dev.origin}/added`)).status).toBe(404);
    await writeFile(join(dev.dir, 'app', 'pages', 'added.tsx'), 'export default function Added() {\n  return <h1 id="added">Added while running</h1>;\n}\n');
    await dev.edit('routes.ts', "import * as counter from './pages/counter.tsx';", "import * as added from './pages/added.tsx';\nimport * as counter from './pages/counter.tsx';");
    await dev.edit('routes.ts', "[route('/', counter)]", "[route('/', counter), route('/added', added)]");
    // The table is read again after the server's build, the client built with the new page, the server restarted.
    // Refused while the server restarts.
    await until(
      () =>
        fetch(`${dev.origin}/added`).then(
          (res) => res.status === 200,
          () => false,
        ),
      'the new route to answer',
    );
    await dev.settled();
    const first = await pageScript('/added');
    expect(first.status).toBe(200);
    expect(first.html).toContain('Added while running');
    // Its own entry in the client build, served: the page hydrates.
    expect(first.script).toBe(200);

    // A later save elsewhere: the client build keeps the new page.
    const restarts = listens();
    await dev.edit('pages/label.tsx', 'Clicked', 'Clicked twice');
    await until(async () => listens() > restarts, 'the restart after the save');
    await dev.settled();
    const later = await pageScript('/added');
    expect(later.status).toBe(200);
    expect(later.script).toBe(200);
    expect((await fetch(`${dev.origin}/`)).status).toBe(200);
  }, 90_000);
});
