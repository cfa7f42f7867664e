import { connect } from 'node:net';
import request from 'supertest';
import { pageDataOf } from '../support/page-data-scripts.ts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadClientAssets, type ClientAssets } from '../../server/render/client-assets.ts';
import { createContentSecurityPolicy } from '../../server/security/content-security-policy.ts';
import { routes } from '../support/fixture-server-routes.tsx';
import { FIXTURE_CLIENT_DIR } from '../support/fixture-server-build.ts';
import { VITALS_ENDPOINT } from '../../shared/protocol/telemetry.ts';
import { buildApp } from '../support/build-app.ts';
import { close, listen } from '../support/http-client.ts';
import { unitRoutes } from '../support/pages.tsx';
import type { Server } from 'node:http';

const BUILT_CLIENT = FIXTURE_CLIENT_DIR;

function nonceOfHeader(csp: string | undefined): string {
  const match = /script-src 'nonce-([^']+)' 'strict-dynamic'/.exec(csp ?? '');
  if (match?.[1] === undefined) throw new Error(`no script nonce in ${csp}`);
  return match[1];
}

describe('Content-Security-Policy', () => {
  const { app } = buildApp(unitRoutes());

  test('carries a fresh nonce of at least 128 bits on every page', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 20; i += 1) {
      const res = await request(app).get(i % 2 === 0 ? '/users/1' : `/users/${i}`);
      nonces.add(nonceOfHeader(res.headers['content-security-policy']));
    }
    expect(nonces.size).toBe(20);
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64').length).toBeGreaterThanOrEqual(16);
  });

  test("allows scripts only by nonce with strict-dynamic, and styles only from the site's own files", async () => {
    const res = await request(app).get('/users/1');
    const csp = String(res.headers['content-security-policy']);
    const nonce = nonceOfHeader(csp);
    expect(csp).toContain(`script-src 'nonce-${nonce}' 'strict-dynamic';`);
    expect(csp).toContain("style-src 'self';");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("script-src-attr 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
  });

  test("gives the same nonce to every script and style of a streamed page, React's own included", async () => {
    const { app: streaming } = buildApp(unitRoutes(20));
    const res = await request(streaming).get('/slow').set('User-Agent', 'Mozilla/5.0 Chrome/140.0');
    const nonce = nonceOfHeader(res.headers['content-security-policy']);
    const tags = res.text.match(/<(script|style)\b[^>]*>/g) ?? [];
    // React's streaming scripts for the late boundary (the page's styles are files: docs/styles.md).
    expect(tags.filter((tag) => tag.startsWith('<script')).length).toBeGreaterThan(0);
    for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
  });

  test('is on status and error pages too, fixed: no nonce, no script, the style allowed by its hash', async () => {
    const policies = new Set<string>();
    for (const path of ['/missing', '/%E0%A4%A', '/throw-in-load', '/status-in-load/forbidden']) {
      const res = await request(app).get(path);
      const csp = String(res.headers['content-security-policy']);
      policies.add(csp);
      expect(csp, path).not.toContain('nonce-');
      expect(csp).toContain("script-src 'none';");
      expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/]+=*';/);
      expect(res.text).toMatch(/<style>/);
      expect(res.text).not.toContain('nonce');
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(policies.size).toBe(1);
  });

  test('never sends X-Powered-By', async () => {
    for (const path of ['/', '/missing', '/throw-in-load', '/healthz']) {
      const res = await request(app).get(path);
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });
});

describe('client assets (built by npm run build)', () => {
  let assets: ClientAssets;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    assets = loadClientAssets(BUILT_CLIENT);
    const listening = await listen(buildApp(routes, { assets }).app);
    server = listening.server;
    port = Number(new URL(listening.origin).port);
  });
  afterAll(() => close(server));

  function home() {
    const page = assets.routes.get('/');
    if (page === undefined) throw new Error('the build has no home page');
    return page;
  }

  test("the home page starts its own module and chunks from a script under the nonce, after the shell's first frame", async () => {
    const { app } = buildApp(routes, { assets });
    const res = await request(app).get('/');
    const nonce = nonceOfHeader(res.headers['content-security-policy']);
    const page = home();
    const bootstrap = [...res.text.matchAll(/<script nonce="([^"]+)"[^>]*>([^<]*requestAnimationFrame[^<]*)<\/script>/g)];
    expect(bootstrap).toHaveLength(1);
    expect(bootstrap[0]?.[1]).toBe(nonce);
    // The module and its chunks get the bootstrap's own nonce when it adds them; the route
    // table's module is not among them: the navigation runtime fetches it on a first intent.
    const table = Reflect.get(Object(pageDataOf(res.text)), 'navigation');
    expect(table).toMatch(/^\/assets\/routes-[0-9a-f]{12}\.js$/);
    expect(bootstrap[0]?.[2]).toContain(`(${JSON.stringify(page.script)},${JSON.stringify(page.preloads)},document.currentScript.nonce)`);
    expect(bootstrap[0]?.[2]).not.toContain(table);
    // Nothing in the markup starts a download before the first paint.
    expect(res.text).not.toMatch(/<script[^>]*\bsrc=|<link[^>]*rel="modulepreload"/);
    expect(res.text).toMatch(/<div id="root"><header class="app-header">.*<main/);
  });

  test('serves built files with immutable caching', async () => {
    const { app } = buildApp(routes, { assets });
    const res = await request(app).get(home().script);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('a built file carries every security header, its own request id and a policy that lets nothing run, in each encoding', async () => {
    const { app, logs } = buildApp(routes, { assets });
    const { helmetStaticHeaders, PERMISSIONS_POLICY } = await import('../../server/security/security-headers.ts');
    const ids = new Set<string>();
    for (const encoding of ['identity', 'gzip', 'br']) {
      const res = await request(app).get(home().script).set('Accept-Encoding', encoding);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
      for (const [name, value] of helmetStaticHeaders()) expect(res.headers[name.toLowerCase()], name).toBe(value);
      expect(res.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'self'");
      ids.add(String(res.headers['x-request-id']));
    }
    expect(ids.size).toBe(3);
    expect(logs.map((line) => [line.route, line.status])).toEqual([
      ['/assets/*', 200],
      ['/assets/*', 200],
      ['/assets/*', 200],
    ]);
  });

  /** Sends the request target byte for byte: HTTP clients would normalise the dots. */
  function rawGet(target: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
  }

  test.each([
    '/assets/../package.json',
    '/assets/..%2fpackage.json',
    '/assets/%2e%2e/package.json',
    '/assets/%2E%2E%2Fpackage.json',
    '/assets/..%5cpackage.json',
    '/assets/%252e%252e/package.json',
    '/assets/..%2f..%2fdist%2fclient%2fmanifest.json',
    '/assets/%2e%2e%2fmanifest.json',
    '/assets/....//package.json',
  ])('never reads outside the assets folder: %s', async (target) => {
    const res = await rawGet(target);
    const status = Number(res.slice(9, 12));
    expect(status).toBe(404);
    expect(res).not.toContain('"devDependencies"');
    expect(res).not.toContain('"pages"');
  });
});

describe('helmet headers', () => {
  test('are exactly what helmet itself sets, computed once', async () => {
    const { helmetStaticHeaders } = await import('../../server/security/security-headers.ts');
    const headers = Object.fromEntries(helmetStaticHeaders());
    expect(headers).toMatchObject({
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    });
    const { app } = buildApp(unitRoutes());
    const res = await request(app).get('/missing');
    for (const [name, value] of Object.entries(headers)) expect(res.headers[name], name).toBe(value);
  });
});

describe('every kind of answer', () => {
  test("carries helmet's headers, Permissions-Policy, a Content-Security-Policy and its own request id", async () => {
    const { helmetStaticHeaders, PERMISSIONS_POLICY } = await import('../../server/security/security-headers.ts');
    const { app } = buildApp(unitRoutes(), { telemetry: { enabled: true } });
    const answers: Array<readonly [string, request.Response]> = [
      ['GET /users/1', await request(app).get('/users/1')],
      ['HEAD /users/1', await request(app).head('/users/1')],
      ['GET /missing as JSON', await request(app).get('/missing').set('Accept', 'application/json')],
      ['POST /users/1', await request(app).post('/users/1')],
      ['GET /favicon.svg', await request(app).get('/favicon.svg')],
      ['GET /favicon.ico', await request(app).get('/favicon.ico')],
      ['GET /healthz', await request(app).get('/healthz')],
      ['GET /readyz', await request(app).get('/readyz')],
      ['POST /healthz', await request(app).post('/healthz')],
      ['POST vitals', await request(app).post(VITALS_ENDPOINT).set('Content-Type', 'application/json').send('{}')],
      ['GET /%E0%A4%A', await request(app).get('/%E0%A4%A')],
      ['GET /throw-in-load', await request(app).get('/throw-in-load')],
    ];
    const ids = new Set<string>();
    for (const [label, res] of answers) {
      const what = `${label} (${res.status})`;
      for (const [name, value] of helmetStaticHeaders()) expect(res.headers[name.toLowerCase()], `${what}: ${name}`).toBe(value);
      expect(res.headers['permissions-policy'], what).toBe(PERMISSIONS_POLICY);
      expect(res.headers['content-security-policy'], what).toMatch(/default-src '(self|none)'/);
      expect(res.headers['x-request-id'], what).toMatch(/^[0-9a-f-]{36}$/);
      ids.add(String(res.headers['x-request-id']));
    }
    expect(ids.size).toBe(answers.length);
  });
});

describe('a source the policy cannot hold safely', () => {
  test.each([
    ['a semicolon, which would start a directive', 'https://evil.example;script-src-elem'],
    ['a comma, which would start a second policy', 'https://evil.example,script-src'],
    ['a quote, which would make a keyword', "https://evil.example'unsafe-inline'"],
    ['an underscore, which no CSP host may hold', 'https://cdn_1.example'],
  ])('is refused when createApp is given an analytics URL with %s', (_why, url) => {
    expect(() => buildApp(unitRoutes(), { analytics: { pageViews: url } })).toThrow(/Content-Security-Policy/);
  });

  test.each([
    'https://evil.example;script-src-elem',
    'https://evil.example, script-src *',
    "'unsafe-inline'",
    "'unsafe-eval'",
    '"https://a.example"',
    'https://a.example /x',
    'https://a.example\tb',
    'https://a.example\nb',
    '',
  ])('is refused by the policy builder itself: %j', (source) => {
    expect(() => createContentSecurityPolicy({ scriptSources: [source] })).toThrow(/Content-Security-Policy/);
    expect(() => createContentSecurityPolicy({ connectSources: [source] })).toThrow(/Content-Security-Policy/);
  });

  test.each(['https://cdn.example.com', 'https://cdn.example.com:8443', 'https://*.example.com', 'http://localhost:35729', 'https://cdn.example.com/scripts/a.js', 'https:'])(
    'is accepted when it is a plain host or scheme source: %s',
    (source) => {
      const policy = createContentSecurityPolicy({ scriptSources: [source], connectSources: [source] })('n0nce');
      expect(policy).toContain(`script-src 'nonce-n0nce' 'strict-dynamic' ${source};`);
      expect(policy).toContain(`connect-src 'self' ${source}`);
    },
  );

  test('an analytics origin reaches the header as one source of script-src and connect-src, nothing more', async () => {
    const { app } = buildApp(unitRoutes(), { analytics: { pageViews: 'https://cdn.example.com/pv.js' } });
    const csp = String((await request(app).get('/users/1')).headers['content-security-policy']);
    const directives = csp.split(';').map((directive) => directive.split(' ')[0]);
    expect(new Set(directives).size).toBe(directives.length);
    expect(csp).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic' https:\/\/cdn\.example\.com;/);
    expect(csp).toContain("connect-src 'self' https://cdn.example.com");
  });
});

describe('scanner findings, decided (docs/security.md)', () => {
  const { app } = buildApp(unitRoutes());

  test('Permissions-Policy turns off the powerful features no page uses, on every answer', async () => {
    for (const [method, path] of [
      ['get', '/users/1'],
      ['get', '/missing'],
      ['get', '/throw-in-load'],
      ['get', '/healthz'],
      ['post', '/users/1'],
    ] as const) {
      const policy = String((await request(app)[method](path)).headers['permissions-policy']);
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'browsing-topics']) {
        expect(policy, `${method} ${path}`).toContain(`${feature}=()`);
      }
      expect(policy).toMatch(/^[a-z-]+=\(\)(, [a-z-]+=\(\))*$/);
    }
  });

  test("fonts load only from our own origin: font-src 'self', no https: and no data:", async () => {
    const csp = String((await request(app).get('/users/1')).headers['content-security-policy']);
    expect(csp).toContain("font-src 'self';");
    expect(csp).not.toMatch(/font-src[^;]*(https:|data:)/);
  });

  test('HSTS is sent on every answer, plain HTTP included: browsers ignore it there, and it never depends on TRUST_PROXY', async () => {
    for (const trustProxy of [false, 'loopback'] as const) {
      const { app: behind } = buildApp(unitRoutes(), { trustProxy });
      for (const proto of ['http', 'https']) {
        const res = await request(behind).get('/users/1').set('X-Forwarded-Proto', proto);
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      }
    }
  });
});
