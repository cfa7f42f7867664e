import { request as httpRequest } from 'node:http';
import { createGunzip, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp } from '../support/build-app.ts';
import { closeTestServers, DESKTOP_CHROME, listenForTest, type TimedChunk } from '../support/http-client.ts';
import { navigationLines } from '../support/navigation-data-lines.ts';
import { after } from '../support/settle-after.ts';

const MANY = 2_000;
const SLOW_MS = 800;

const pages = asHydrating([
  defineRoute<{ readonly values: readonly Promise<number>[] }>({
    path: '/many',
    component: () => <p>MANY</p>,
    // All settle in the same turn, as the rows of one query would.
    load: () => ({ values: Array.from({ length: MANY }, (_, i) => after(20, () => i)) }),
  }),
  defineRoute<{ readonly fast: Promise<string>; readonly slow: Promise<string> }>({
    path: '/one-slow',
    component: () => <p>ONE-SLOW</p>,
    load: () => ({ fast: after(10, () => 'FAST-VALUE'), slow: after(SLOW_MS, () => 'SLOW-VALUE') }),
  }),
]);

const NAVIGATION = { 'X-Navigation': 'data', 'X-Navigation-Scope': 'n4', Accept: 'application/x-ndjson, application/json;q=0.9', 'User-Agent': DESKTOP_CHROME };

/** A zlib full flush ends in an empty stored block: these four bytes, once per flush. */
const FULL_FLUSH = Buffer.from([0x00, 0x00, 0xff, 0xff]);

function count(haystack: Buffer, needle: Buffer): number {
  let found = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found += 1;
  return found;
}

interface GzipAnswer {
  readonly status: number;
  /** The bytes as they came off the wire. */
  readonly wire: Buffer;
  /** The decoded text, stamped with when each piece was decoded. */
  readonly decoded: readonly TimedChunk[];
}

/** GETs `url` with gzip, keeping both the compressed bytes and the decoded text as it arrives. */
function getGzip(url: string, headers: Record<string, string>): Promise<GzipAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(url, { agent: false, headers: { ...headers, 'Accept-Encoding': 'gzip' } }, (res) => {
      const wire: Buffer[] = [];
      const decoded: TimedChunk[] = [];
      const gunzip = createGunzip();
      res.on('data', (chunk: Buffer) => {
        wire.push(chunk);
        gunzip.write(chunk);
      });
      res.on('end', () => gunzip.end());
      gunzip.on('data', (chunk: Buffer) => decoded.push({ at: performance.now() - started, text: chunk.toString() }));
      gunzip.on('end', () => resolve({ status: res.statusCode ?? 0, wire: Buffer.concat(wire), decoded }));
      gunzip.on('error', reject);
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

afterEach(closeTestServers);

async function origin(): Promise<string> {
  const { origin: url } = await listenForTest(buildApp(pages.routes, { assets: pages.assets }).app);
  return url;
}

describe("a page's navigation data under compression", () => {
  test(`flushes once per turn, not once per line: ${MANY} values that settle together leave in a few flushes`, async () => {
    const answer = await getGzip(`${await origin()}/many`, NAVIGATION);
    expect(answer.status).toBe(200);
    const text = gunzipSync(answer.wire).toString();
    // Every value arrived: the head line, the data, then one line per value.
    expect(navigationLines(text)).toHaveLength(MANY + 2);
    expect(count(answer.wire, FULL_FLUSH)).toBeLessThan(10);
    // A flush per line costs a block header and the compressor's window each time: 2,002
    // flushes made 105 KB of 146 KB of lines; in one flush they are 21 KB.
    expect(answer.wire.length).toBeLessThan(text.length / 4);
  });

  test('still sends what it has at each turn: the first lines arrive before a slow value settles', async () => {
    const answer = await getGzip(`${await origin()}/one-slow`, NAVIGATION);
    const arrived = (marker: string) => answer.decoded.find((chunk) => chunk.text.includes(marker))?.at ?? Number.POSITIVE_INFINITY;
    expect(arrived('"route"')).toBeLessThan(SLOW_MS / 2);
    expect(arrived('FAST-VALUE')).toBeLessThan(SLOW_MS / 2);
    expect(arrived('SLOW-VALUE')).toBeGreaterThanOrEqual(SLOW_MS - 20);
    expect(navigationLines(answer.decoded.map((chunk) => chunk.text).join(''))).toHaveLength(4);
  });
});
