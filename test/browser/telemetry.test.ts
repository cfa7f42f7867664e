import { describe, expect, test } from 'vitest';
import { waitFor } from '../support/build-app.ts';
import { DESKTOP_CHROME, fixtureSession, watchedPage } from './harness.ts';

const session = fixtureSession({ WEB_VITALS: 'on' });

describe('first-party telemetry in Chromium', () => {
  test('web vitals arrive by beacon and are logged with the route pattern', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const { page, problems } = await watchedPage(context);
    await page.goto(`${session.server.origin}/`);
    await page.waitForSelector('#root[data-hydrated]');
    await page.click('main h1');
    // Leaving the page makes web-vitals report the metrics it holds until then (LCP, CLS, INP).
    await page.goto('about:blank');
    const vitals = () => session.server.logs.filter((line) => line.msg === 'web vital').map((line) => line.vital);
    await waitFor(
      () => ['TTFB', 'FCP', 'LCP'].every((name) => vitals().some((vital) => typeof vital === 'object' && vital !== null && 'name' in vital && vital.name === name)),
      10_000,
      'TTFB, FCP and LCP in the log',
    );
    for (const vital of vitals()) expect(vital).toMatchObject({ route: '/', value: expect.any(Number) });
    // The beacons broke no CSP rule (connect-src) and raised nothing.
    expect(problems).toEqual([]);
    await context.close();
  });

  test('a client-side exception is reported, with the page request id', async () => {
    const context = await session.chromium.browser.newContext({ userAgent: DESKTOP_CHROME });
    const page = await context.newPage();
    const response = await page.goto(`${session.server.origin}/fixtures/client-throw`);
    const requestId = response?.headers()['x-request-id'];
    await page.waitForSelector('text=Application error');
    await waitFor(() => session.server.logs.some((line) => line.msg === 'client error report'), 10_000, 'a client error report in the log');
    expect(session.server.logs.find((line) => line.msg === 'client error report')).toMatchObject({
      level: 40,
      pageRequestId: requestId,
      clientError: { kind: 'uncaught', message: 'thrown in the browser only', route: '/fixtures/client-throw' },
    });
    await context.close();
  });
});
