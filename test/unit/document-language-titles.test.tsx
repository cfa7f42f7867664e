import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineApp } from '../../server/index.ts';
import { createTestApp } from '../../server/testing/index.ts';
import { defineRoute, isRouteErrorResponse, layout, notFound, useRouteError, type LayoutModule, type PageHead } from '../../shared/index.ts';

/**
 * The document's `<html lang dir>` and `<title>` as an app declares them (docs/building-an-app.md,
 * "Language, direction and titles"): the site's defaults, a layout's and a page's own, and the
 * head while an `ErrorBoundary` shows. Each on the document, and on the navigation data the
 * router sets the head from on an in-place move.
 */

function Page() {
  return <main>PAGE</main>;
}

function Boundary() {
  const error = useRouteError();
  return <main>BOUNDARY {isRouteErrorResponse(error) ? error.status : 'error'}</main>;
}

const BOOKS = new Map([['1', 'Dune']]);

const rtl: LayoutModule = {
  default: Page,
  head: { lang: 'ar', dir: 'rtl', siteTitleTemplate: '%s', titleTemplate: '%s — قسم' },
  ErrorBoundary: Boundary,
  errorHead: () => ({ title: 'Section failed' }),
};

const routes = [
  defineRoute({ path: '/', component: Page, head: { title: 'Home' } }),
  defineRoute({ path: '/untitled', component: Page }),
  defineRoute({ path: '/fr', component: Page, head: { title: 'Accueil', lang: 'fr' } }),
  defineRoute({ path: '/greet/:lang', component: Page, head: (_data: unknown, params): PageHead => ({ title: 'Hello', lang: params.lang ?? 'en' }) }),
  defineRoute({ path: '/dollars', component: Page, head: { title: "Save $& $' now" } }),
  defineRoute<{ readonly title: string }>({
    path: '/books/:id',
    component: Page,
    load: ({ params }) => ({ title: BOOKS.get(params.id ?? '') ?? notFound() }),
    head: (data) => ({ title: data.title }),
    ErrorBoundary: Boundary,
    errorHead: (error) => (isRouteErrorResponse(error) && error.status === 404 ? { title: 'Book not found' } : { title: 'Book unavailable' }),
  }),
  defineRoute({
    path: '/broken',
    component: Page,
    load: () => {
      throw new Error('document-language test: expected failure');
    },
    ErrorBoundary: Boundary,
    errorHead: (error) => ({ title: isRouteErrorResponse(error) ? 'A status' : 'Something broke', robots: 'noindex, nofollow' }),
  }),
  defineRoute({ path: '/plain-missing', component: Page, load: () => notFound(), ErrorBoundary: Boundary }),
  layout(
    rtl,
    [
      defineRoute({ path: '/ar', component: Page, head: { title: 'مرحبا' } }),
      defineRoute({ path: '/ar/missing', component: Page, load: () => notFound() }),
      defineRoute({ path: '/ar/dollars', component: Page, head: { title: "$& $'" } }),
    ],
    { id: 'rtl' },
  ),
];

const acme = createTestApp(defineApp({ routes, site: { name: 'Acme', lang: 'en-GB', dir: 'ltr', titleTemplate: '%s | Acme' } })).app;
const plain = createTestApp(defineApp({ routes, site: { name: 'Plain' } })).app;

const NAVIGATION = { 'X-Navigation': 'data', 'X-Navigation-Scope': 'n1', Accept: 'application/x-ndjson, application/json;q=0.9' };

/** The `<html>` start tag and the `<title>` of a document. */
function documentOf(html: string): { readonly html: string | undefined; readonly title: string | undefined } {
  return { html: /<html[^>]*>/.exec(html)?.[0], title: /<title>([^<]*)<\/title>/.exec(html)?.[1] };
}

/** The head the navigation data's first line carries: what the router writes on an in-place move. */
async function navigationHead(app: typeof acme, path: string, status = 200): Promise<unknown> {
  const res = await request(app).get(path).set(NAVIGATION).expect(status);
  const first: unknown = JSON.parse(res.text.split('\n')[0] ?? '');
  expect(first).toHaveProperty('head');
  return Object(first).head;
}

describe("the document's language and direction", () => {
  test('come from the site: lang and dir on every page', async () => {
    expect(documentOf((await request(acme).get('/').expect(200)).text).html).toBe('<html lang="en-GB" dir="ltr">');
  });

  test('without them, lang="en" and no dir, as before', async () => {
    expect(documentOf((await request(plain).get('/').expect(200)).text).html).toBe('<html lang="en">');
  });

  test("a page's head sets its own language, the site's direction kept", async () => {
    expect(documentOf((await request(acme).get('/fr').expect(200)).text).html).toBe('<html lang="fr" dir="ltr">');
    expect(documentOf((await request(plain).get('/fr').expect(200)).text).html).toBe('<html lang="fr">');
  });

  test('a head from the request sets it per request, on the same route', async () => {
    expect(documentOf((await request(acme).get('/greet/de').expect(200)).text).html).toBe('<html lang="de" dir="ltr">');
    expect(documentOf((await request(acme).get('/greet/it').expect(200)).text).html).toBe('<html lang="it" dir="ltr">');
  });

  test("a layout's head sets both for every page inside it, a boundary's page included", async () => {
    expect(documentOf((await request(acme).get('/ar').expect(200)).text).html).toBe('<html lang="ar" dir="rtl">');
    expect(documentOf((await request(plain).get('/ar/missing').expect(404)).text).html).toBe('<html lang="ar" dir="rtl">');
  });

  test("status pages carry the site's language and direction", async () => {
    const missing = await request(acme).get('/nowhere').expect(404);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);
    expect(documentOf(missing.text).html).toBe('<html lang="en-GB" dir="ltr">');
    expect(documentOf((await request(plain).get('/nowhere').expect(404)).text).html).toBe('<html lang="en">');
  });

  test("the navigation data carries both, dir empty for none, so an in-place move sets the document's and the next page's own", async () => {
    expect(await navigationHead(acme, '/fr')).toMatchObject({ html: { lang: 'fr', dir: 'ltr' } });
    expect(await navigationHead(acme, '/ar')).toMatchObject({ html: { lang: 'ar', dir: 'rtl' } });
    expect(await navigationHead(plain, '/')).toMatchObject({ html: { lang: 'en', dir: '' } });
    expect(await navigationHead(plain, '/ar/missing', 404)).toMatchObject({ html: { lang: 'ar', dir: 'rtl' } });
  });
});

describe('titles', () => {
  test("by default the site's name follows the page's title; a page without one gets the name alone", async () => {
    expect(documentOf((await request(plain).get('/').expect(200)).text).title).toBe('Home · Plain');
    expect(documentOf((await request(plain).get('/untitled').expect(200)).text).title).toBe('Plain');
  });

  test("the site's titleTemplate replaces the suffix; the name alone still stands for no title", async () => {
    expect(documentOf((await request(acme).get('/').expect(200)).text).title).toBe('Home | Acme');
    expect(documentOf((await request(acme).get('/untitled').expect(200)).text).title).toBe('Acme');
    expect(await navigationHead(acme, '/')).toMatchObject({ title: 'Home | Acme' });
  });

  test("a layout's siteTitleTemplate replaces the site's for its pages, inside which its titleTemplate still goes", async () => {
    expect(documentOf((await request(acme).get('/ar').expect(200)).text).title).toBe('مرحبا — قسم');
    expect(await navigationHead(acme, '/ar')).toMatchObject({ title: 'مرحبا — قسم' });
  });

  test('a title holding $ patterns is written as given, never read as a replacement pattern', async () => {
    expect(documentOf((await request(acme).get('/dollars').expect(200)).text).title).toBe('Save $&amp; $&#x27; now | Acme');
    expect(await navigationHead(acme, '/dollars')).toMatchObject({ title: "Save $& $' now | Acme" });
    expect(await navigationHead(acme, '/ar/dollars')).toMatchObject({ title: "$& $' — قسم" });
  });
});

describe("an ErrorBoundary's own head", () => {
  test("a 404 the book page's load threw: the title errorHead gives for it, noindex, in the document and the navigation data", async () => {
    const res = await request(acme).get('/books/2').expect(404);
    expect(res.text).toContain('BOUNDARY <!-- -->404');
    expect(documentOf(res.text).title).toBe('Book not found | Acme');
    expect(res.text).toContain('<meta name="robots" content="noindex"/>');
    expect(await navigationHead(acme, '/books/2', 404)).toMatchObject({
      title: 'Book not found | Acme',
      meta: expect.arrayContaining([{ key: 'name', value: 'robots', content: 'noindex' }]),
    });
    expect(documentOf((await request(acme).get('/books/1').expect(200)).text).title).toBe('Dune | Acme');
  });

  test('errorHead sees the exception of a load that threw, and may set robots itself', async () => {
    const res = await request(acme).get('/broken').expect(500);
    expect(documentOf(res.text).title).toBe('Something broke | Acme');
    expect(res.text).toContain('<meta name="robots" content="noindex, nofollow"/>');
  });

  test("a layout's errorHead gives the head when its boundary shows, inside its own templates", async () => {
    expect(documentOf((await request(acme).get('/ar/missing').expect(404)).text).title).toBe('Section failed — قسم');
  });

  test("without errorHead, the status's title, as before", async () => {
    expect(documentOf((await request(acme).get('/plain-missing').expect(404)).text).title).toBe('404: This page could not be found. | Acme');
    expect(documentOf((await request(plain).get('/plain-missing').expect(404)).text).title).toBe('404: This page could not be found. · Plain');
  });
});
