import { Suspense, use } from 'react';
import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import type { PageProps, RouteDefinition } from '../../shared/api/route-definition.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { notFound } from '../../shared/api/status-helpers.ts';
import { asHydrating, buildApp, errorLines, LEVEL, type TestApp } from '../support/build-app.ts';
import { arrival, closeTestServers, DESKTOP_CHROME, getTimed, listenForTest } from '../support/http-client.ts';
import { dataScripts, inlineScripts, pageDataOf } from '../support/page-data-scripts.ts';
import { after } from '../support/settle-after.ts';

/** A field of a value built in another realm (the page's scripts run in their own context). */
function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) current = typeof current === 'object' && current !== null ? Reflect.get(current, key) : undefined;
  return current;
}

function kindOf(value: unknown): string {
  return Object.prototype.toString.call(value);
}

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

interface StreamedData {
  readonly fast: string;
  readonly slow: Promise<{ readonly text: string; readonly when: Date }>;
}

function SlowText({ value }: { readonly value: StreamedData['slow'] }) {
  const { text, when } = use(value);
  return (
    <p id="slow">
      {text} at {when.toISOString()}
    </p>
  );
}

function StreamedPage({ data }: PageProps<StreamedData>) {
  return (
    <main>
      <h1 id="fast">{data.fast}</h1>
      <Suspense fallback={<p id="fallback">SLOW-FALLBACK</p>}>
        <SlowText value={data.slow} />
      </Suspense>
    </main>
  );
}

function Rejected({ value }: { readonly value: Promise<string> }) {
  return <p>{use(value)}</p>;
}

function RejectedPage({ data }: PageProps<{ readonly broken: Promise<string> }>) {
  return (
    <Suspense fallback={<p>BROKEN-FALLBACK</p>}>
      <Rejected value={data.broken} />
    </Suspense>
  );
}

function Never({ value }: { readonly value: Promise<string> }) {
  return <p>{use(value)}</p>;
}

function NeverPage({ data }: PageProps<{ readonly never: Promise<string> }>) {
  return (
    <>
      <h1>NEVER-SHELL</h1>
      <Suspense fallback={<p>NEVER-FALLBACK</p>}>
        <Never value={data.never} />
      </Suspense>
    </>
  );
}

const SLOW_MS = 400;

function streamedRoutes(): RouteDefinition[] {
  return [
    defineRoute<StreamedData>({
      path: '/streamed',
      component: StreamedPage,
      load: () => ({ fast: 'FAST-VALUE', slow: after(SLOW_MS, () => ({ text: 'SLOW-VALUE', when: new Date(Date.UTC(2026, 10, 23)) })) }),
    }),
    defineRoute({
      path: '/rejected',
      component: RejectedPage,
      load: () => ({
        broken: after(20, (): string => {
          throw new Error('SECRET-DEFERRED-FAILURE');
        }),
      }),
    }),
    defineRoute({
      path: '/rejected-before-load-returns',
      component: RejectedPage,
      load: async () => {
        const broken = Promise.reject<string>(new Error('SECRET-EARLY-FAILURE'));
        broken.catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, 30));
        return { broken };
      },
    }),
    defineRoute({ path: '/late-not-found', component: RejectedPage, load: () => ({ broken: after(20, (): string => notFound()) }) }),
    defineRoute({ path: '/never', component: NeverPage, load: () => ({ never: new Promise<string>(() => undefined) }) }),
    defineRoute({
      path: '/values',
      component: () => <p>VALUES</p>,
      load: () => ({
        now: after(10, () => ({
          date: new Date(Date.UTC(2000, 0, 1)),
          big: 12345678901234567890n,
          map: new Map<string, unknown>([['k', [1, 2]]]),
          set: new Set(['a', 'b']),
          url: new URL('https://example.com/a?b=c'),
          pattern: /a+b/gi,
          missing: undefined,
          nested: { deeper: [after(10, () => 'NESTED-VALUE')] },
          hostile: ['</script><script>window.__pwned=1</script>', '<!--', 'line\u2028sep\u2029end'],
        })),
      }),
    }),
  ];
}

afterEach(closeTestServers);

async function serve(test: TestApp): Promise<string> {
  const { origin } = await listenForTest(test.app);
  return origin;
}

describe('deferred data: promises inside what load returns', () => {
  test('the shell with the fast value arrives before a 400 ms promise settles; its value follows in the same response', async () => {
    const { routes, assets } = asHydrating(streamedRoutes());
    const origin = await serve(buildApp(routes, { assets }));
    const res = await getTimed(`${origin}/streamed`, { 'User-Agent': DESKTOP_CHROME });
    expect(res.status).toBe(200);
    const shellAt = arrival(res, 'FAST-VALUE');
    const slowAt = arrival(res, 'SLOW-VALUE');
    expect(res.chunks[0]?.text).toContain('SLOW-FALLBACK');
    expect(shellAt).toBeLessThan(SLOW_MS - 100);
    expect(slowAt).toBeGreaterThanOrEqual(SLOW_MS - 20);

    // The browser rebuilds the value from the scripts of this response: no second request.
    const page = pageDataOf(res.body);
    expect(page).toMatchObject({ data: { fast: 'FAST-VALUE' } });
    const slow: unknown = await at(page, 'data', 'slow');
    expect(slow).toEqual({ text: 'SLOW-VALUE', when: new Date(Date.UTC(2026, 10, 23)) });
    // The settled value's script and the boundary's content that uses it leave together, in one
    // write: the boundary hydrates from the script without waiting for more of the response.
    const slowChunk = res.chunks.find((chunk) => chunk.text.includes('<p id="slow">'));
    expect(slowChunk?.text).toContain('SLOW-VALUE');
    expect(dataScripts(slowChunk?.text ?? '').some((script) => script.includes('SLOW-VALUE'))).toBe(true);
  });

  test('a crawler gets every value settled in the one document', async () => {
    const { routes, assets } = asHydrating(streamedRoutes());
    const res = await request(buildApp(routes, { assets }).app).get('/streamed').set('User-Agent', GOOGLEBOT);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<p id="slow">SLOW-VALUE<!-- --> at <!-- -->2026-11-23T00:00:00.000Z</p>');
    // Its scripts sit inside the document, before it ends.
    expect(res.text.endsWith('</body></html>')).toBe(true);
    const slow: unknown = await at(pageDataOf(res.text), 'data', 'slow');
    expect(slow).toMatchObject({ text: 'SLOW-VALUE' });
  });

  test('carries Dates, BigInt, Map, Set, URL, RegExp, undefined and promises inside settled values, hostile strings inert', async () => {
    const { routes, assets } = asHydrating(streamedRoutes());
    const res = await request(buildApp(routes, { assets }).app).get('/values').set('User-Agent', DESKTOP_CHROME);
    // Every data script, whatever it carries, holds no character that could end it or the
    // statement; React's own scripts (its boundary runtime) carry none of the data.
    for (const script of dataScripts(res.text)) expect(script).not.toMatch(/<|\u2028|\u2029/);
    const data = new Set(dataScripts(res.text));
    for (const script of inlineScripts(res.text).filter((inline) => !data.has(inline))) expect(script).not.toMatch(/__pwned|line\u2028sep/);
    expect(res.text).not.toContain('<script>window.__pwned');
    const now: unknown = await at(pageDataOf(res.text), 'data', 'now');
    expect(at(now, 'big')).toBe(12345678901234567890n);
    expect(kindOf(at(now, 'date'))).toBe('[object Date]');
    expect(String(Reflect.apply(Date.prototype.toISOString, at(now, 'date'), []))).toBe('2000-01-01T00:00:00.000Z');
    expect(kindOf(at(now, 'map'))).toBe('[object Map]');
    expect([...Reflect.apply(Map.prototype.entries, at(now, 'map'), [])]).toEqual([['k', [1, 2]]]);
    expect(kindOf(at(now, 'set'))).toBe('[object Set]');
    expect([...Reflect.apply(Set.prototype.values, at(now, 'set'), [])]).toEqual(['a', 'b']);
    expect(String(at(now, 'url'))).toBe('https://example.com/a?b=c');
    expect(kindOf(at(now, 'pattern'))).toBe('[object RegExp]');
    expect(String(at(now, 'pattern'))).toBe('/a+b/gi');
    expect(typeof now === 'object' && now !== null && 'missing' in now).toBe(true);
    expect(at(now, 'missing')).toBeUndefined();
    expect(at(now, 'hostile')).toEqual(['</script><script>window.__pwned=1</script>', '<!--', 'line\u2028sep\u2029end']);
    await expect(at(now, 'nested', 'deeper', '0')).resolves.toBe('NESTED-VALUE');
  });

  test.each([
    ['a rejection', '/rejected', 'SECRET-DEFERRED-FAILURE'],
    // As the guide says to: a value made before load's await, marked handled where it is made.
    ['a rejection before load returned, marked handled,', '/rejected-before-load-returns', 'SECRET-EARLY-FAILURE'],
  ])("%s is one error line; the page gets only its digest, in the boundary and in the value's rejection", async (_what, path, secret) => {
    const { routes, assets } = asHydrating(streamedRoutes());
    const built = buildApp(routes, { assets });
    const res = await request(built.app).get(path).set('User-Agent', DESKTOP_CHROME);
    expect(res.status).toBe(200);
    const [line, ...others] = errorLines(built.logs);
    expect(others).toEqual([]);
    expect(line).toMatchObject({ level: LEVEL.error, err: { message: secret }, digest: expect.any(String) });
    const digest = String(line?.digest);
    expect(res.text).not.toContain(secret);
    // React marks the boundary with the digest; the browser's copy of the promise rejects with it.
    expect(res.text).toContain(digest);
    await expect(at(pageDataOf(res.text), 'data', 'broken')).rejects.toMatchObject({ digest });
  });

  test('shows message and stack of a rejection in development', async () => {
    const { routes, assets } = asHydrating(streamedRoutes());
    const res = await request(buildApp(routes, { assets, development: true }).app)
      .get('/rejected')
      .set('User-Agent', DESKTOP_CHROME);
    await expect(at(pageDataOf(res.text), 'data', 'broken')).rejects.toMatchObject({
      message: 'SECRET-DEFERRED-FAILURE',
      stack: expect.stringContaining('SECRET-DEFERRED-FAILURE'),
    });
  });

  test('notFound() in a deferred value names the status for the client, with its words, and is no error', async () => {
    const { routes, assets } = asHydrating(streamedRoutes());
    const built = buildApp(routes, { assets });
    const res = await request(built.app).get('/late-not-found').set('User-Agent', DESKTOP_CHROME);
    expect(res.status).toBe(200);
    expect(errorLines(built.logs)).toEqual([]);
    await expect(at(pageDataOf(res.text), 'data', 'broken')).rejects.toMatchObject({ digest: 'status:404:This page could not be found.' });
  });

  test('a value still pending at the render timeout rejects in the browser with the digest of the one timeout warning', async () => {
    const { routes, assets } = asHydrating(streamedRoutes());
    const built = buildApp(routes, { assets, pages: { renderTimeoutMs: 200 } });
    const origin = await serve(built);
    const res = await getTimed(`${origin}/never`, { 'User-Agent': DESKTOP_CHROME });
    expect(res.status).toBe(200);
    expect(res.body).toContain('NEVER-SHELL');
    expect(res.body.endsWith('</body></html>')).toBe(true);
    const warnings = built.logs.filter((line) => line.msg === 'render timed out');
    expect(warnings).toHaveLength(1);
    expect(errorLines(built.logs)).toEqual([]);
    const digest = warnings[0]?.digest;
    expect(digest).toEqual(expect.any(String));
    await expect(at(pageDataOf(res.body), 'data', 'never')).rejects.toMatchObject({ digest });
  });

  test('a page that ships no JavaScript streams its boundaries but embeds no data', async () => {
    const built = buildApp(streamedRoutes());
    const res = await request(built.app).get('/streamed').set('User-Agent', GOOGLEBOT);
    expect(res.text).toContain('SLOW-VALUE');
    expect(res.text).not.toContain('$R');
    expect(inlineScripts(res.text).filter((script) => script.includes('SLOW-VALUE'))).toEqual([]);
  });
});
