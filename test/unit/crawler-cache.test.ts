import { Agent, request as httpRequest } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { MAX_REMEMBERED_AGENT_LENGTH, rememberedAgents } from '../../server/render/is-crawler.ts';
import { buildApp } from '../support/build-app.ts';
import { closeTestServers, DESKTOP_CHROME, getTimed, listenForTest } from '../support/http-client.ts';
import { unitRoutes } from '../support/pages.tsx';

afterEach(closeTestServers);

async function serve() {
  const { app } = buildApp(unitRoutes(100));
  const { origin } = await listenForTest(app);
  return origin;
}

/** GETs `path` once per user agent over a few keep-alive connections; resolves with the statuses. */
async function getWithAgents(origin: string, path: string, userAgents: readonly string[]): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  try {
    return await Promise.all(
      userAgents.map(
        (userAgent) =>
          new Promise<number>((resolve, reject) => {
            const req = httpRequest(`${origin}${path}`, { agent, headers: { 'User-Agent': userAgent } }, (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            });
            req.on('error', reject);
            req.end();
          }),
      ),
    );
  } finally {
    agent.destroy();
  }
}

/** Near Node's 16 KiB header limit, with the rest of the request's headers. */
const LONG = 15 * 1024;

function longAgent(i: number, tail: string): string {
  const head = `${DESKTOP_CHROME} build/${i} `;
  return `${head}${'x'.repeat(LONG - head.length - tail.length)}${tail}`;
}

describe('the crawler cache', () => {
  test('holds at most 1,000 agents and no long ones, however many distinct agents arrive', async () => {
    const origin = await serve();
    const short = Array.from({ length: 1_100 }, (_, i) => `${DESKTOP_CHROME} build/${i}`);
    const long = Array.from({ length: 100 }, (_, i) => longAgent(i, ''));
    const statuses = await getWithAgents(origin, '/', [...short, ...long]);
    expect(new Set(statuses)).toEqual(new Set([200]));

    const remembered = rememberedAgents();
    // Every short agent was remembered once; the oldest gave way to the newest.
    expect(remembered.count).toBe(1_000);
    expect(remembered.characters).toBeLessThanOrEqual(1_000 * MAX_REMEMBERED_AGENT_LENGTH);
  });

  test('tells a long agent by all of it: a crawler token at its end still gets the whole document', async () => {
    const origin = await serve();
    // A browser first, then a crawler whose agent differs only after the first 15 KiB.
    const browser = await getTimed(`${origin}/slow`, { 'User-Agent': longAgent(1, ' Safari/537.36') });
    const crawler = await getTimed(`${origin}/slow`, { 'User-Agent': longAgent(1, ' Googlebot/2.1') });

    expect(browser.chunks[0]?.text).toContain('LOADING-FALLBACK');
    expect(crawler.chunks[0]?.text).toContain('SLOW-CONTENT-ARRIVED');
    expect(crawler.body).not.toContain('LOADING-FALLBACK');
  });
});
