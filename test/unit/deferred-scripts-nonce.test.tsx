import { Suspense, use } from 'react';
import { afterEach, describe, expect, test } from 'vitest';
import { defineRoute, type PageProps } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp } from '../support/build-app.ts';
import { closeTestServers, DESKTOP_CHROME, getTimed, listenForTest } from '../support/http-client.ts';
import { after } from '../support/settle-after.ts';

/**
 * Every inline script of a streamed page, the deferred values' scripts written after the shell
 * included, runs under the request's CSP nonce (docs/security.md): without it, the browser
 * refuses the script and the value never reaches the page.
 */

function Slow({ value }: { readonly value: Promise<string> }) {
  return <p id="slow">{use(value)}</p>;
}

const { routes, assets } = asHydrating([
  defineRoute({
    path: '/deferred',
    component: ({ data }: PageProps<{ readonly first: Promise<string>; readonly second: Promise<string> }>) => (
      <main>
        <h1>DEFERRED</h1>
        <Suspense fallback={<p>FALLBACK</p>}>
          <Slow value={data.first} />
        </Suspense>
      </main>
    ),
    load: () => ({ first: after(150, () => 'FIRST-VALUE'), second: after(250, () => 'SECOND-VALUE') }),
  }),
]);

afterEach(closeTestServers);

describe("deferred values' scripts", () => {
  test("carry the page's nonce, the one its Content-Security-Policy names, as every other script does", async () => {
    const { origin } = await listenForTest(buildApp(routes, { assets }).app);
    const res = await getTimed(`${origin}/deferred`, { 'User-Agent': DESKTOP_CHROME });
    expect(res.status).toBe(200);
    const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(nonce).toEqual(expect.any(String));
    // The two values' scripts came after the shell, on their own.
    const shell = res.chunks[0]?.text ?? '';
    expect(shell).not.toContain('FIRST-VALUE');
    const late = res.body.slice(shell.length);
    const lateScripts = [...late.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1] ?? '');
    expect(late).toContain('FIRST-VALUE');
    expect(late).toContain('SECOND-VALUE');
    expect(lateScripts.length).toBeGreaterThanOrEqual(2);
    const all = [...res.body.matchAll(/<script\b([^>]*)>/g)].map((match) => match[1] ?? '');
    for (const attributes of all) expect(attributes).toContain(` nonce="${nonce}"`);
  });
});
