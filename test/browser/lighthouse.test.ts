import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { describeFailingAudits, launchDebuggableChromium, runLighthouse, type CategoryId, type DebuggableChromium } from '../../scripts/bench/lighthouse.ts';
import { chromiumPath } from '../support/system-components.ts';
import { startFixtureServer, type FixtureServer } from './harness.ts';

/**
 * Lighthouse (mobile) on `/` of the production server, in the machine's Chromium: SEO,
 * accessibility and best practices at 100. One run; performance is left to `npm run bench`,
 * whose figures depend on the machine and are never asserted by a test.
 */
const CATEGORIES: readonly CategoryId[] = ['seo', 'accessibility', 'best-practices'];

let server: FixtureServer;
let chromium: DebuggableChromium;

beforeAll(async () => {
  server = await startFixtureServer();
  chromium = await launchDebuggableChromium(chromiumPath());
});
afterAll(async () => {
  await chromium?.close();
  await server?.stop();
});

describe('Lighthouse on / (mobile)', () => {
  test('SEO, accessibility and best practices score 100', { timeout: 120_000 }, async () => {
    // Lighthouse refuses a 4xx/5xx page; say so plainly rather than through its runtime error.
    expect((await fetch(`${server.origin}/`)).status).toBe(200);
    const summary = await runLighthouse(`${server.origin}/`, { port: chromium.port, categories: CATEGORIES });
    expect(summary.formFactor).toBe('mobile');
    const perfect = Object.fromEntries(CATEGORIES.map((category) => [category, 100]));
    expect(summary.scores, `failing audits:\n${describeFailingAudits(summary.failing)}`).toEqual(perfect);
  });
});
