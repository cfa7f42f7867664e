import { request as httpRequest } from 'node:http';
import { createGunzip } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import { NAVIGATION_HEADER, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { defineRoute, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp, delay, errorLines, waitFor } from '../support/build-app.ts';
import { closeTestServers, DESKTOP_CHROME, getTimed, listenForTest, type TimedChunk } from '../support/http-client.ts';
import { navigationDataOf, navigationLines } from '../support/navigation-data-lines.ts';
import { openRawConnection } from '../support/raw-http.ts';
import { after } from '../support/settle-after.ts';

/**
 * A page's data for an in-place navigation (server/render/page-data-answer.ts) as it streams:
 * its scripts write into the scope the browser named, its first lines leave at once even when
 * compressed, and a client that leaves takes the server's interest in the page's pending values
 * with it.
 */

const SCOPE = 'n7';
const NAVIGATION = { [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: SCOPE, Accept: 'application/x-ndjson, application/json;q=0.9', 'User-Agent': DESKTOP_CHROME };
const SLOW_MS = 400;

/** A value settled by the test, whose serialization shows: seroval reads a URL's `href` to write it. */
interface Watched {
  settle: ((value: unknown) => void) | undefined;
  reads: number;
}

function watchedValue(watched: Watched): URL {
  const url = new URL('https://example.com/watched');
  Object.defineProperty(url, 'href', {
    get() {
      watched.reads += 1;
      return 'https://example.com/watched';
    },
  });
  return url;
}

function pages(watched: Watched): ReturnType<typeof asHydrating> {
  return asHydrating([
    defineRoute({
      path: '/slow',
      component: () => <h1>SLOW</h1>,
      load: () => ({ fast: 'FAST-VALUE', slow: after(SLOW_MS, () => ({ text: 'SLOW-VALUE' })) }),
    }),
    defineRoute({
      path: '/held',
      component: () => <h1>HELD</h1>,
      load: () => ({
        fast: 'FAST-VALUE',
        held: new Promise<unknown>((resolve) => {
          watched.settle = resolve;
        }),
      }),
    }),
  ] satisfies RouteDefinition[]);
}

afterEach(closeTestServers);

async function serve(watched: Watched = { settle: undefined, reads: 0 }): Promise<{ origin: string; built: ReturnType<typeof buildApp> }> {
  const { routes, assets } = pages(watched);
  const built = buildApp(routes, { assets });
  const { origin } = await listenForTest(built.app);
  return { origin, built };
}

/** A navigation's data asked with `Accept-Encoding: gzip`, decompressed as it arrives, each piece stamped. */
function getGzipped(url: string): Promise<{ encoding: string | undefined; chunks: TimedChunk[] }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(url, { agent: false, headers: { ...NAVIGATION, 'Accept-Encoding': 'gzip' } }, (res) => {
      const chunks: TimedChunk[] = [];
      const gunzip = res.pipe(createGunzip());
      gunzip.on('data', (chunk: Buffer) => chunks.push({ at: performance.now() - started, text: chunk.toString() }));
      gunzip.on('end', () => resolve({ encoding: res.headers['content-encoding'], chunks }));
      gunzip.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** When the decoded text first held `needle`, in ms since the request. */
function firstSeen(chunks: readonly TimedChunk[], needle: string): number {
  let text = '';
  for (const chunk of chunks) {
    text += chunk.text;
    if (text.includes(needle)) return chunk.at;
  }
  return Number.POSITIVE_INFINITY;
}

describe("a navigation's data on the wire", () => {
  test('every script writes into the scope the browser named, the deferred value included', async () => {
    const { origin } = await serve();
    const res = await getTimed(`${origin}/slow`, NAVIGATION);
    expect(res.status).toBe(200);
    const scripts = navigationLines(res.body).slice(1);
    expect(scripts).toHaveLength(2);
    for (const script of scripts) {
      expect(typeof script).toBe('string');
      expect(String(script)).toContain(`$R[${JSON.stringify(SCOPE)}]`);
      expect(String(script)).not.toContain('$R["page"]');
    }
    // Run as the navigation runtime runs them: the value settles in the named scope.
    const data = navigationDataOf(res.body, SCOPE);
    const slow: unknown = typeof data === 'object' && data !== null ? Reflect.get(Reflect.get(data, 'data') ?? {}, 'slow') : undefined;
    await expect(slow).resolves.toEqual({ text: 'SLOW-VALUE' });
  });

  test('under Accept-Encoding: gzip the first lines arrive before the slow value settles', async () => {
    const { origin } = await serve();
    const { encoding, chunks } = await getGzipped(`${origin}/slow`);
    expect(encoding).toBe('gzip');
    const text = chunks.map((chunk) => chunk.text).join('');
    const [meta, initial, settled] = navigationLines(text);
    expect(meta).toMatchObject({ route: '/slow' });
    expect(String(initial)).toContain('FAST-VALUE');
    expect(String(settled)).toContain('SLOW-VALUE');
    // The page and its data leave at once; the deferred value when it settles, in the same answer.
    expect(firstSeen(chunks, 'FAST-VALUE')).toBeLessThan(SLOW_MS - 150);
    expect(firstSeen(chunks, 'SLOW-VALUE')).toBeGreaterThanOrEqual(SLOW_MS - 20);
  });
});

describe('a client that leaves during a navigation', () => {
  test("the server stops listening to the page's pending values: one settling afterwards is not written, nor even read", async () => {
    const watched: Watched = { settle: undefined, reads: 0 };
    const { origin, built } = await serve(watched);
    const connection = await openRawConnection(Number(new URL(origin).port));
    connection.write(
      `GET /held HTTP/1.1\r\nHost: localhost\r\n${Object.entries(NAVIGATION)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')}\r\n`,
    );
    // The page's data has left; the held value is still pending.
    await waitFor(() => connection.received().includes('FAST-VALUE'), 2_000, 'the data line');
    connection.destroy();
    await waitFor(() => built.logs.some((line) => line.msg === 'request aborted' || line.msg === 'render aborted: client disconnected'), 2_000, 'the abort');
    const settle = watched.settle;
    if (settle === undefined) throw new Error('the page never ran');
    settle({ when: watchedValue(watched) });
    await delay(50);
    expect(watched.reads).toBe(0);
    expect(errorLines(built.logs)).toEqual([]);
  });

  test('the control: while the client stays, the value that settles is read and written', async () => {
    const watched: Watched = { settle: undefined, reads: 0 };
    const { origin } = await serve(watched);
    const answer = getTimed(`${origin}/held`, NAVIGATION);
    await waitFor(() => watched.settle !== undefined, 2_000, 'the page to run');
    await delay(50);
    watched.settle?.({ when: watchedValue(watched) });
    const res = await answer;
    expect(watched.reads).toBeGreaterThan(0);
    expect(res.body).toContain('https://example.com/watched');
  });
});
