import type { Response } from 'express';
import { afterEach, describe, expect, test } from 'vitest';
import { defineRoute, type PageProps } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp, LEVEL, waitFor } from '../support/build-app.ts';
import { closeTestServers, DESKTOP_CHROME, getTimed, listenForTest } from '../support/http-client.ts';

/**
 * A page whose data holds no promise has nothing to stream after its shell (docs/building-an-app.md,
 * "Deferred data with Suspense"): no batch of data scripts waits after `#root`, and the render
 * timeout has nothing to stop once React is done.
 */

function Title({ data }: PageProps<{ readonly title: string }>) {
  return <h1>{data.title}</h1>;
}

afterEach(closeTestServers);

async function serve(...args: Parameters<typeof buildApp>) {
  const built = buildApp(...args);
  const { origin } = await listenForTest(built.app);
  return { ...built, origin };
}

/** What the document holds after the page's own markup: `#root`'s end to `</body>`. */
function afterRoot(html: string): string {
  const start = html.indexOf('<div id="root">');
  return html.slice(html.indexOf('</div>', start), html.indexOf('</body>'));
}

describe('a page with nothing deferred', () => {
  test('that hydrates writes no batch of data scripts after #root: no Suspense boundary of its own', async () => {
    const { routes, assets } = asHydrating([
      defineRoute({ path: '/plain', component: Title, load: () => ({ title: 'PLAIN-TITLE' }) }),
      defineRoute({ path: '/deferred', component: Title, load: () => ({ title: 'DEFERRED-TITLE', later: Promise.resolve('LATER-VALUE') }) }),
    ]);
    const { origin } = await serve(routes, { assets });
    const plain = await getTimed(`${origin}/plain`, { 'User-Agent': DESKTOP_CHROME });
    expect(plain.status).toBe(200);
    expect(plain.body).toContain('PLAIN-TITLE');
    // `#root`'s end, then the bootstrap script alone: 17 bytes of an empty boundary would sit between.
    expect(afterRoot(plain.body)).toMatch(/^<\/div><script nonce="[^"]+" id="_R_">[^<]*<\/script>$/);
    expect(plain.body).not.toContain('<!--$');
    // The same page with a value deferred carries that value's script in a boundary there.
    const deferred = await getTimed(`${origin}/deferred`, { 'User-Agent': DESKTOP_CHROME });
    expect(afterRoot(deferred.body)).toContain('<!--$');
    expect(afterRoot(deferred.body)).toContain('LATER-VALUE');
  });

  test('whose render is done when the timeout fires logs no "render timed out"; one with a value still pending does', async () => {
    const routes = [
      defineRoute({ path: '/plain', component: Title, load: () => ({ title: 'PLAIN-TITLE' }) }),
      // A value no component reads: React is done, the value is not.
      defineRoute({ path: '/unread', component: Title, load: () => ({ title: 'UNREAD-TITLE', never: new Promise<string>(() => undefined) }) }),
    ];
    const { origin, logs } = await serve(routes, {
      pages: { renderTimeoutMs: TIMEOUT_MS },
      // The last bytes still on their way when the timeout fires (a compressor's final flush,
      // here held longer): React is done, the response has not ended, the client reads.
      middleware: (router) => router.use((_req, res, next) => holdEnd(res, next)),
    });
    for (const path of ['/plain', '/unread']) {
      const res = await getTimed(`${origin}${path}`, { 'User-Agent': DESKTOP_CHROME });
      expect(res.status).toBe(200);
      expect(res.body.endsWith('</body></html>')).toBe(true);
      await waitFor(() => logs.some((line) => line.msg === 'request completed' && line.path === path));
    }
    const warnings = logs.filter((line) => line.level >= LEVEL.warn);
    expect(warnings).toEqual([expect.objectContaining({ msg: 'render timed out', route: '/unread', timeoutMs: TIMEOUT_MS, clientStalled: false })]);
  });
});

/** Long enough for React to finish either page first, even on a busy machine. */
const TIMEOUT_MS = 300;

/** Ends the response twice the render timeout after it was asked to: the timeout fires in between. */
function holdEnd(res: Response, next: () => void): void {
  const end = res.end;
  Object.defineProperty(res, 'end', {
    value: (...args: unknown[]) => {
      setTimeout(() => Reflect.apply(end, res, args), TIMEOUT_MS * 2);
      return res;
    },
  });
  next();
}
