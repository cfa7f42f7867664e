import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineApp, type StatusPageProps } from '../../server/index.ts';
import { loadClientAssets } from '../../server/render/client-assets.ts';
import { createTestApp } from '../../server/testing/index.ts';
import { defineRoute, isRouteErrorResponse, notFound, useRouteError } from '../../shared/index.ts';

/**
 * The status pages as an app words and styles them (docs/status-pages.md#the-apps-choices): per
 * status and language, the language negotiated or picked by the app, the app's stylesheet and
 * its own component, each on the wire.
 */

function Page() {
  return <p>PAGE</p>;
}

/** A route's boundary as an app writes one: the status and its words, from `useRouteError()`. */
function Boundary() {
  const error = useRouteError();
  return <p id="boundary">{isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : 'error'}</p>;
}

const routes = [
  defineRoute({ path: '/', component: Page }),
  defineRoute({ path: '/gone', component: Page, load: () => notFound(), ErrorBoundary: Boundary }),
  defineRoute({
    path: '/boom',
    component: Page,
    load: () => {
      throw new Error('boom');
    },
  }),
];

const messages = {
  fr: { 404: 'Page introuvable.', 500: 'Erreur du serveur.' },
  ar: { 404: 'الصفحة غير موجودة.' },
};

const worded = defineApp({ routes, statusPages: { messages, directions: { ar: 'rtl' } } });

function htmlTag(text: string): string {
  return text.match(/<html[^>]*>/)?.[0] ?? '';
}

describe('the status pages in the languages the app words them in', () => {
  const { app } = createTestApp(worded);

  test('Accept-Language picks among the site language and the languages given: lang, title, message and Vary follow', async () => {
    const fr = await request(app).get('/missing').set('Accept-Language', 'fr-CA, en;q=0.5').expect(404);
    expect(fr.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(htmlTag(fr.text)).toBe('<html lang="fr">');
    expect(fr.text).toContain('<title>404: Page introuvable.</title>');
    expect(fr.text).toContain('<h1>404</h1><h2>Page introuvable.</h2>');
    expect(fr.headers.vary).toBe('Accept, Accept-Language');

    const ar = await request(app).get('/missing').set('Accept-Language', 'ar').expect(404);
    expect(htmlTag(ar.text)).toBe('<html lang="ar" dir="rtl">');
    expect(ar.text).toContain('<h2>الصفحة غير موجودة.</h2>');

    // A language the app does not word, and no header at all: the site's, in the framework's words.
    for (const asked of ['de', undefined]) {
      const req = request(app).get('/missing');
      const res = await (asked === undefined ? req : req.set('Accept-Language', asked)).expect(404);
      expect(htmlTag(res.text)).toBe('<html lang="en">');
      expect(res.text).toContain('<title>404: This page could not be found.</title>');
    }
  });

  test("a status a language leaves out keeps the framework's message, in that language's document", async () => {
    const res = await request(app).post('/').set('Accept-Language', 'fr').expect(405);
    expect(htmlTag(res.text)).toBe('<html lang="fr">');
    expect(res.text).toContain('<h2>Method Not Allowed.</h2>');
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  test("JSON answers carry the same message, the 500's with its digest", async () => {
    const missing = await request(app).get('/missing').set('Accept', 'application/json').set('Accept-Language', 'fr').expect(404);
    expect(missing.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(missing.body).toEqual({ status: 404, message: 'Page introuvable.' });
    const { app: own, logs } = createTestApp(worded);
    const failed = await request(own).get('/boom').set('Accept', 'application/json').set('Accept-Language', 'fr').expect(500);
    const digest = logs.find((line) => line.msg === 'server error')?.digest;
    expect(failed.body).toEqual({ status: 500, message: 'Erreur du serveur.', digest });
  });

  test("the 500 page says the app's sentence for 500 with the digest of its log line", async () => {
    const { app: own, logs } = createTestApp(worded);
    const res = await request(own).get('/boom').set('Accept-Language', 'fr').expect(500);
    const digest = logs.find((line) => line.msg === 'server error')?.digest;
    expect(htmlTag(res.text)).toBe('<html lang="fr">');
    expect(res.text).toContain('<title>500: Erreur du serveur.</title>');
    expect(res.text).toContain('<h2>Erreur du serveur.</h2>');
    expect(res.text).toContain(`<p class="digest">Digest: ${digest}</p>`);
  });

  test("a route's boundary tells the status in the same words, with the status page's title, in the request's language", async () => {
    const fr = await request(app).get('/gone').set('Accept-Language', 'fr').expect(404);
    expect(fr.text).toContain('<p id="boundary">404 Page introuvable.</p>');
    // The site's name follows, as on its pages.
    expect(fr.text).toContain('<title>404: Page introuvable. · ');
    const en = await request(app).get('/gone').expect(404);
    expect(en.text).toContain('<p id="boundary">404 This page could not be found.</p>');
    expect(en.text).toContain('<title>404: This page could not be found. · ');
  });

  test('each language is prepared once: the same bytes for each request in it', async () => {
    const first = await request(app).get('/missing').set('Accept-Language', 'fr');
    const second = await request(app).get('/other').set('Accept-Language', 'fr');
    const english = await request(app).get('/other');
    expect(second.text).toBe(first.text);
    expect(english.text).not.toBe(first.text);
  });

  test("the app's language(req) picks instead of Accept-Language; a tag it was not given is the site's", async () => {
    const picked = defineApp({ routes, site: { lang: 'en-GB' }, statusPages: { messages, language: (request) => new URL(request.url).searchParams.get('lang') ?? undefined } });
    const { app: own } = createTestApp(picked);
    const fr = await request(own).get('/missing?lang=fr').set('Accept-Language', 'ar').expect(404);
    expect(htmlTag(fr.text)).toBe('<html lang="fr">');
    expect(fr.text).toContain('<h2>Page introuvable.</h2>');
    const other = await request(own).get('/missing?lang=xx').set('Accept-Language', 'fr').expect(404);
    expect(htmlTag(other.text)).toBe('<html lang="en-GB">');
    expect(other.text).toContain('<h2>This page could not be found.</h2>');
  });

  test('without messages, nothing of the request changes the page, and the answer varies on Accept alone', async () => {
    const { app: plain } = createTestApp(defineApp({ routes }));
    const res = await request(plain).get('/missing').set('Accept-Language', 'fr').expect(404);
    expect(htmlTag(res.text)).toBe('<html lang="en">');
    expect(res.headers.vary).toBe('Accept');
  });
});

/** Each render of the app's status component, as `lang status`. */
const renders: string[] = [];

function Oops({ status, message, lang, dir }: StatusPageProps) {
  renders.push(`${lang} ${status}`);
  return (
    <section className="oops" data-dir={dir}>
      <p className="oops-status">{status}</p>
      <p>{message}</p>
    </section>
  );
}

function OopsWithDigest({ status, message, host, digest }: StatusPageProps) {
  return (
    <p className="oops">
      {status} {message} on {host} ({digest})
    </p>
  );
}

describe("the status pages in the app's look", () => {
  test("the app's component is rendered without script or inline style, given status, message, lang and dir", async () => {
    renders.length = 0;
    const { app } = createTestApp(defineApp({ routes, statusPages: { messages, directions: { ar: 'rtl' }, component: Oops } }));
    const res = await request(app).get('/missing').set('Accept-Language', 'ar').expect(404);
    expect(res.text).toContain('<main><section class="oops" data-dir="rtl"><p class="oops-status">404</p><p>الصفحة غير موجودة.</p></section></main>');
    expect(res.text).not.toMatch(/<script|<style|class="status"/);
    // Its policy allows no inline style: the look is a linked stylesheet's.
    expect(res.headers['content-security-policy']).toMatch(/style-src 'self';/);
    await request(app).get('/elsewhere').set('Accept-Language', 'ar').expect(404);
    await request(app).get('/missing').expect(404);
    await request(app).get('/missing').expect(404);
    expect(renders).toEqual(['ar 404', 'en 404']);
  });

  test('the 500 page gives the component the host and the digest of the log line', async () => {
    const { app, logs } = createTestApp(defineApp({ routes, statusPages: { component: OopsWithDigest } }));
    const res = await request(app).get('/boom').set('Host', 'shop.example').expect(500);
    const digest = logs.find((line) => line.msg === 'server error')?.digest;
    expect(typeof digest).toBe('string');
    expect(res.text).toContain(
      `<main><p class="oops">500 Application error: a server-side exception has occurred while loading shop.example (see the server logs for more information). on shop.example (${digest})</p></main>`,
    );
  });

  test("stylesOf links that page's built stylesheet, which the status answers' policy allows", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'status-look-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'home-AB12.css'), '.status h1{color:rebeccapurple}');
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ routes: { '/': { script: '/assets/home-AB12.js', preloads: [], styles: ['/assets/home-AB12.css'] } } }));
    const assets = loadClientAssets(dir);
    const { app } = createTestApp(defineApp({ routes, statusPages: { stylesOf: '/' } }), { assets });
    const res = await request(app).get('/missing').expect(404);
    expect(res.text).toContain('<link rel="stylesheet" href="/assets/home-AB12.css"/>');
    // The framework's view and inline style stay, under the app's rules.
    expect(res.text).toContain('<h1>404</h1>');
    expect(res.text.indexOf('<style>')).toBeLessThan(res.text.indexOf('home-AB12.css'));
    expect(res.headers['content-security-policy']).toMatch(/style-src 'self' 'sha256-[^']+';/);
    const css = await request(app).get('/assets/home-AB12.css').expect(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(() => createTestApp(defineApp({ routes, statusPages: { stylesOf: '/nowhere' } }), { assets })).toThrow(
      'statusPages.stylesOf /nowhere: no page of the client build has this path',
    );
  });
});
