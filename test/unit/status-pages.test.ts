import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import type { Server } from 'node:http';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildApp, errorLines } from '../support/build-app.ts';
import { close, listen } from '../support/http-client.ts';
import { unitRoutes } from '../support/pages.tsx';

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
  const { app } = buildApp(unitRoutes());

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
      // A page's policy carries its fresh nonce; a status answer's is the same fixed string every time.
      if (path === '/users/1') expect(head.headers['content-security-policy']).toMatch(/nonce-/);
      else expect(head.headers['content-security-policy']).toBe(get.headers['content-security-policy']);
      expect(head.headers['content-length']).toBe(get.headers['content-length']);
      expect(head.text ?? '').toBe('');
    }
  });

  test('serves a favicon', async () => {
    const res = await request(app).get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.body.toString()).toContain('<svg');
  });

  test('logs no error for any 4xx answer', async () => {
    // Its own app and requests: run alone (-t), it must still see every one of these answers.
    const { app: own, logs } = buildApp(unitRoutes());
    const answers = [
      await request(own).get('/no/such/page'),
      await request(own).get('/status-in-load/not-found'),
      await request(own).get('/status-in-load/unauthorized'),
      await request(own).get('/status-in-load/forbidden'),
      await request(own).get('/status-in-shell/forbidden'),
      await request(own).post('/users/1'),
      await request(own).get('/%E0%A4%A'),
      await request(own).get('/users/1?q=%E0%A4%A'),
      await request(own).head('/no/such/page'),
    ];
    expect(answers.map((res) => res.status)).toEqual([404, 404, 401, 403, 403, 405, 400, 400, 404]);
    const completed = logs.filter((line) => line.msg === 'request completed');
    expect(completed.map((line) => line.status)).toEqual(answers.map((res) => res.status));
    expect(errorLines(logs)).toEqual([]);
  });
});

describe('JSON status answers', () => {
  const { app } = buildApp(unitRoutes());

  test('gives JSON with the same status when Accept prefers application/json', async () => {
    const res = await request(app).get('/missing').set('Accept', 'application/json');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.vary).toBe('Accept');
    expect(res.text).toBe('{"status":404,"message":"This page could not be found."}');
  });

  test('prefers HTML when both are equally acceptable or HTML is preferred', async () => {
    const ties = ['application/json, text/html', 'application/json;q=0.5, text/html;q=0.5', 'application/json, text/*', 'application/json, text/html;level=1, */*'];
    for (const accept of ['*/*', 'text/html,application/json', 'text/html;q=0.9,application/json;q=0.8', '', ...ties]) {
      const res = await request(app).get('/missing').set('Accept', accept);
      expect(res.headers['content-type'], accept).toBe('text/html; charset=utf-8');
    }
  });

  test('gives JSON when JSON has the higher quality', async () => {
    const res = await request(app).get('/status-in-load/forbidden').set('Accept', 'text/html;q=0.5, application/json');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ status: 403, message: 'This page could not be accessed.' });
  });

  test.each(['*/*;q=0.1, application/json;q=0.2', 'text/*;q=0.3, application/*', 'application/json, text/html;q=0'])(
    'gives JSON when the most specific range for each type ranks JSON higher (%s)',
    async (accept) => {
      const res = await request(app).get('/missing').set('Accept', accept);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    },
  );

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
    const { app } = buildApp(unitRoutes());
    const res = await request(app).get('/missing').set('Accept', 'application/*');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  test.each(['application/ld+json, */*', 'application/problem+json, */*;q=0.9'])('a client whose Accept (%s) reaches HTML and JSON only through */* gets HTML', async (accept) => {
    const { app } = buildApp(unitRoutes());
    const res = await request(app).get('/missing').set('Accept', accept);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});

/** `sha256-…` of the text of each `<style>` element, as a browser hashes it for CSP. */
function styleHashes(html: string): string[] {
  return [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map(
    (match) =>
      `sha256-${createHash('sha256')
        .update(match[1] ?? '', 'utf8')
        .digest('base64')}`,
  );
}

function styleSources(csp: string): string[] {
  const directive = csp.split(';').find((part) => part.startsWith('style-src ')) ?? '';
  return directive.split(' ').slice(1);
}

describe("the status answers' Content-Security-Policy (docs/security.md)", () => {
  const { app } = buildApp(unitRoutes());

  test.each([
    ['404', 'get', '/no/such/page'],
    ['405', 'post', '/users/1'],
    ['400', 'get', '/%E0%A4%A'],
    ['403', 'get', '/status-in-load/forbidden'],
    ['500', 'get', '/throw-in-load'],
  ] as const)('a %s page carries no nonce, and its style hash in the policy matches the style element', async (_status, method, path) => {
    const res = await request(app)[method](path);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).not.toContain('nonce');
    expect(res.text).not.toContain('nonce');
    expect(csp).toContain("script-src 'none';");
    expect(csp).not.toContain('unsafe-inline');
    const hashes = styleHashes(res.text);
    expect(hashes).toHaveLength(1);
    expect(styleSources(csp)).toEqual(["'self'", ...hashes.map((hash) => `'${hash}'`)]);
  });

  test('the development 500 page, rendered per request, is allowed by the same policy', async () => {
    const { app: development } = buildApp(unitRoutes(), { development: true });
    const res = await request(development).get('/throw-in-load');
    expect(res.text).toContain('RangeError: load exploded');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toBe(String((await request(development).get('/missing')).headers['content-security-policy']));
    expect(styleSources(csp)).toEqual(["'self'", ...styleHashes(res.text).map((hash) => `'${hash}'`)]);
  });

  test('a JSON answer carries the same fixed policy', async () => {
    const html = await request(app).get('/missing');
    for (const path of ['/missing', '/throw-in-load']) {
      const json = await request(app).get(path).set('Accept', 'application/json');
      expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(json.headers['content-security-policy']).toBe(html.headers['content-security-policy']);
    }
  });

  test('a page keeps its own nonce policy: only status answers change', async () => {
    const res = await request(app).get('/users/1');
    expect(res.headers['content-security-policy']).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic';/);
    expect(res.headers['content-security-policy']).toContain("style-src 'self';");
  });

  test("with analytics on, the status page keeps the request's nonce for its scripts only; the style stays allowed by hash", async () => {
    const { app: withAnalytics } = buildApp(unitRoutes(), { analytics: { pageViews: 'https://analytics.example.com/pv.js' } });
    const res = await request(withAnalytics).get('/missing');
    const csp = String(res.headers['content-security-policy']);
    const nonce = /script-src 'nonce-([^']+)' 'strict-dynamic' https:\/\/analytics\.example\.com;/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(res.text).toContain(`<script src="https://analytics.example.com/pv.js" defer="" nonce="${nonce}">`);
    expect(res.text).toContain('<style>');
    expect(styleSources(csp)).toEqual(["'self'", ...styleHashes(res.text).map((hash) => `'${hash}'`)]);
    expect(csp).toContain("connect-src 'self' https://analytics.example.com");
    const again = await request(withAnalytics).get('/missing');
    expect(again.headers['content-security-policy']).not.toBe(csp);
  });
});

describe('status answers as prepared bytes', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const listening = await listen(buildApp(unitRoutes()).app);
    server = listening.server;
    port = Number(new URL(listening.origin).port);
  });
  afterAll(() => close(server));

  /** The whole answer as it came off the socket, status line to body. */
  function raw(lines: readonly string[], at = port): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(at, '127.0.0.1', () => socket.write(`${lines.join('\r\n')}\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
  }

  /** The answer without the two lines that must differ: its request id and the clock. */
  function withoutRequestId(answer: string): { rest: string; id: string | undefined } {
    const id = /^X-Request-Id: (.+)\r$/im.exec(answer)?.[1];
    return { rest: answer.replace(/^X-Request-Id: .+\r\n/im, '').replace(/^Date: .+\r\n/im, ''), id };
  }

  test.each([
    ['the 404 page', ['GET /no/such/page HTTP/1.1']],
    ['the 405 page', ['POST /users/1 HTTP/1.1', 'Content-Length: 0']],
    ['the 400 page', ['GET /%E0%A4%A HTTP/1.1']],
    ['a 404 as JSON', ['GET /missing HTTP/1.1', 'Accept: application/json']],
    ['a HEAD of the 404 page', ['HEAD /no/such/page HTTP/1.1']],
  ])('%s is the same bytes, headers and body, for two requests but for the request id', async (_what, lines) => {
    const first = withoutRequestId(await raw(lines));
    const second = withoutRequestId(await raw(lines));
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.id).not.toBe(first.id);
    expect(second.rest).toBe(first.rest);
    expect(first.rest).toMatch(/^HTTP\/1\.1 [45]\d\d /);
    expect(first.rest).toMatch(/^Content-Length: \d+\r$/im);
    expect(first.rest).toMatch(/^Vary: Accept\r$/im);
    expect(first.rest).toMatch(/^Strict-Transport-Security: /im);
    expect(first.rest).not.toContain('nonce');
  });

  test("a fresh app's first 404, as HTML and as JSON, is the same bytes as its second: the answer made on first use is the one kept", async () => {
    const fresh = await listen(buildApp(unitRoutes()).app);
    try {
      const freshPort = Number(new URL(fresh.origin).port);
      for (const lines of [['GET /no/such/page HTTP/1.1'], ['GET /no/such/page HTTP/1.1', 'Accept: application/json']]) {
        const first = withoutRequestId(await raw(lines, freshPort));
        const second = withoutRequestId(await raw(lines, freshPort));
        expect(first.rest).toMatch(/^HTTP\/1\.1 404 /);
        expect(first.rest).toMatch(/^Content-Security-Policy: .*'sha256-/im);
        expect(second.rest).toBe(first.rest);
      }
    } finally {
      await close(fresh.server);
    }
  });

  test('the 500 page differs only in the request id and the digest', async () => {
    const first = withoutRequestId(await raw(['GET /throw-in-load HTTP/1.1']));
    const second = withoutRequestId(await raw(['GET /throw-in-load HTTP/1.1']));
    const digest = (answer: string) => /Digest: ([A-Za-z0-9_-]+)/.exec(answer)?.[1] ?? '';
    expect(digest(first.rest)).not.toBe(digest(second.rest));
    expect(second.rest.replace(digest(second.rest), 'DIGEST')).toBe(first.rest.replace(digest(first.rest), 'DIGEST'));
  });

  test("the Content-Length is the body's length in bytes", async () => {
    for (const lines of [['GET /no/such/page HTTP/1.1'], ['GET /missing HTTP/1.1', 'Accept: application/json'], ['GET /throw-in-load HTTP/1.1']]) {
      const answer = await raw(lines);
      const separator = answer.indexOf('\r\n\r\n');
      const length = Number(/^Content-Length: (\d+)\r$/im.exec(answer.slice(0, separator))?.[1]);
      expect(Buffer.byteLength(answer.slice(separator + 4))).toBe(length);
    }
  });
});
