import { Suspense, use } from 'react';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp, errorLines, LEVEL } from '../support/build-app.ts';
import { DESKTOP_CHROME } from '../support/http-client.ts';
import { after } from '../support/settle-after.ts';

function Slow({ value }: { readonly value: Promise<string> }) {
  return <p>{use(value)}</p>;
}

const SLOW_MS = 1_500;

const pages = asHydrating([
  defineRoute<{ readonly slow: Promise<string> }>({
    path: '/slow',
    component: ({ data }) => (
      <Suspense fallback={<p>SLOW-FALLBACK</p>}>
        <Slow value={data.slow} />
      </Suspense>
    ),
    load: () => ({ slow: after(SLOW_MS, () => 'SLOW-VALUE') }),
  }),
]);

const NAVIGATION = { 'X-Navigation': 'data', 'X-Navigation-Scope': 'n3', Accept: 'application/x-ndjson, application/json;q=0.9', 'User-Agent': DESKTOP_CHROME };

async function timedHead(headers: Record<string, string>): Promise<{ readonly ms: number; readonly res: request.Response }> {
  const { app, logs } = buildApp(pages.routes, { assets: pages.assets, pages: { renderTimeoutMs: 5_000 } });
  const started = performance.now();
  const res = await request(app).head('/slow').set(headers).set('Accept-Encoding', 'gzip');
  expect(errorLines(logs)).toEqual([]);
  expect(logs.filter((line) => line.level >= LEVEL.warn || String(line.msg).startsWith('render aborted'))).toEqual([]);
  return { ms: performance.now() - started, res };
}

describe('HEAD of a page with a slow deferred value', () => {
  test("ends at once for the navigation's data, as for the document, with the headers a GET gets", async () => {
    const document = await timedHead({ 'User-Agent': DESKTOP_CHROME });
    const data = await timedHead(NAVIGATION);
    expect(document.res.status).toBe(200);
    expect(data.res.status).toBe(200);
    expect(document.ms).toBeLessThan(SLOW_MS / 2);
    expect(data.ms).toBeLessThan(SLOW_MS / 2);
    expect(data.res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(data.res.headers['content-encoding']).toBe('gzip');
    expect(data.res.headers['cache-control']).toBe('private, no-cache, no-store, max-age=0, must-revalidate');
  });
});
