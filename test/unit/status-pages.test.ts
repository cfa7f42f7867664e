import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { buildApp, errorLines } from '../support/build-app.ts';
import { fixtureRoutes } from '../support/pages.tsx';

const SECURITY_HEADERS = [
  'content-security-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'cross-origin-opener-policy',
] as const;

function expectStatusPage(res: request.Response, status: number, message: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['cache-control']).toBe('private, no-cache, no-store, max-age=0, must-revalidate');
  expect(res.text.startsWith('<!DOCTYPE html>')).toBe(true);
  const titles = res.text.match(/<title>/g) ?? [];
  expect(titles).toHaveLength(1);
  expect(res.text).toContain(`<title>${status}: ${message.replaceAll("'", '&#x27;')}</title>`);
  expect(res.text).toContain('<meta name="robots" content="noindex"/>');
  expect(res.text).toContain(`<h1>${status}</h1>`);
  expect(res.text).toContain('prefers-color-scheme:dark');
  expect(res.text).not.toMatch(/<script/i);
  for (const header of SECURITY_HEADERS) expect(res.headers[header], header).toBeTruthy();
  expect(res.headers['x-powered-by']).toBeUndefined();
}

describe('status pages', () => {
  const { app, logs } = buildApp(fixtureRoutes());

  test('answers an unknown address with the 404 page', async () => {
    const res = await request(app).get('/no/such/page');
    expectStatusPage(res, 404, 'This page could not be found.');
    expect(res.text).toContain('<h2>This page could not be found.</h2>');
  });

  test.each([
    ['notFound', 'not-found', 404, 'This page could not be found.'],
    ['unauthorized', 'unauthorized', 401, "You're not authorized to access this page."],
    ['forbidden', 'forbidden', 403, 'This page could not be accessed.'],
  ])('answers %s() in load with its status page', async (_helper, kind, status, message) => {
    const res = await request(app).get(`/status-in-load/${kind}`);
    expectStatusPage(res, status, message);
  });

  test.each([
    ['not-found', 404, 'This page could not be found.'],
    ['unauthorized', 401, "You're not authorized to access this page."],
    ['forbidden', 403, 'This page could not be accessed.'],
  ])('answers a status helper (%s) called while the shell renders with its status page', async (kind, status, message) => {
    const res = await request(app).get(`/status-in-shell/${kind}`);
    expectStatusPage(res, status, message);
  });

  test('answers 405 with "Allow: GET, HEAD" for other methods on a page', async () => {
    for (const method of ['post', 'put', 'delete', 'patch'] as const) {
      const res = await request(app)[method]('/users/1');
      expectStatusPage(res, 405, 'Method Not Allowed.');
      expect(res.headers.allow).toBe('GET, HEAD');
    }
  });

  test('answers 404, not 405, for every method on a path no page has', async () => {
    for (const method of ['get', 'post', 'put', 'delete', 'patch', 'options'] as const) {
      const res = await request(app)[method]('/nothing-here');
      expect(res.status, method).toBe(404);
      expect(res.headers.allow).toBeUndefined();
    }
  });

  test('answers 400 for undecodable percent-encoding in the path', async () => {
    for (const path of ['/%E0%A4%A', '/%', '/users/%ZZ', '/a%C3%28b', '/%FF']) {
      const res = await request(app).get(path);
      expectStatusPage(res, 400, 'Bad Request.');
    }
  });

  test('answers 400 for undecodable percent-encoding in the query', async () => {
    const res = await request(app).get('/users/1?q=%E0%A4%A');
    expectStatusPage(res, 400, 'Bad Request.');
  });

  test('answers HEAD with the same status and headers as GET, and no body', async () => {
    for (const path of ['/no/such/page', '/status-in-load/forbidden', '/users/1']) {
      const get = await request(app).get(path);
      const head = await request(app).head(path);
      expect(head.status).toBe(get.status);
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers['cache-control']).toBe(get.headers['cache-control']);
      expect(head.headers['content-security-policy']).toMatch(/nonce-/);
      expect(head.text ?? '').toBe('');
    }
  });

  test('serves a favicon', async () => {
    const res = await request(app).get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.body.toString()).toContain('<svg');
  });

  test('logs no error for any 4xx answer', () => {
    expect(errorLines(logs)).toEqual([]);
  });
});

describe('JSON status answers', () => {
  const { app } = buildApp(fixtureRoutes());

  test('gives JSON with the same status when Accept prefers application/json', async () => {
    const res = await request(app).get('/missing').set('Accept', 'application/json');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.vary).toBe('Accept');
    expect(res.text).toBe('{"status":404,"message":"This page could not be found."}');
  });

  test('prefers HTML when both are equally acceptable or HTML is preferred', async () => {
    for (const accept of ['*/*', 'text/html,application/json', 'text/html;q=0.9,application/json;q=0.8', '']) {
      const res = await request(app).get('/missing').set('Accept', accept);
      expect(res.headers['content-type'], accept).toBe('text/html; charset=utf-8');
    }
  });

  test('gives JSON when JSON has the higher quality', async () => {
    const res = await request(app).get('/status-in-load/forbidden').set('Accept', 'text/html;q=0.5, application/json');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ status: 403, message: 'This page could not be accessed.' });
  });

  test('carries the digest for a 500, and security headers', async () => {
    const res = await request(app).get('/throw-in-load').set('Accept', 'application/json');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ status: 500, message: 'Internal Server Error.', digest: expect.stringMatching(/^[A-Za-z0-9_-]{16,}$/) });
    expect(res.headers['content-security-policy']).toBeTruthy();
    expect(res.text).not.toContain('SECRET');
  });
});

describe('JSON answers for wildcard clients', () => {
  test('a client that accepts only application/* gets JSON', async () => {
    const { app } = buildApp(fixtureRoutes());
    const res = await request(app).get('/missing').set('Accept', 'application/*');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  test.each(['application/ld+json, */*', 'application/problem+json, */*;q=0.9'])(
    'a client whose Accept (%s) reaches HTML and JSON only through */* gets HTML',
    async (accept) => {
      const { app } = buildApp(fixtureRoutes());
      const res = await request(app).get('/missing').set('Accept', accept);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    },
  );
});
