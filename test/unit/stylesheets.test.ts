import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadClientAssets, MANIFEST_FILE } from '../../server/render/client-assets.ts';
import { STATUS_VIEW_CSS } from '../../shared/views/status-view.tsx';
import { buildApp } from '../support/build-app.ts';
import { FIXTURE_CLIENT_DIR } from '../support/fixture-server-build.ts';
import { routes } from '../support/fixture-server-routes.tsx';
import { close, DESKTOP_CHROME, getRaw, listen } from '../support/http-client.ts';
import { routeTableOf } from '../support/page-data-scripts.ts';

/**
 * A page's CSS (docs/styles.md): what its module imports is built into a hashed file under
 * `/assets/`, written into the head before any script (inline when small, allowed by its hash;
 * else linked, allowed by `style-src 'self'`); status pages keep their one inline style and link
 * nothing. On the fixture client build, whose stylesheets are all small; `linked` is the same
 * build with nothing inlined.
 */
const assets = loadClientAssets(FIXTURE_CLIENT_DIR);
const { app } = buildApp(routes, { assets });
const linked = buildApp(routes, { assets: loadClientAssets(FIXTURE_CLIENT_DIR, { inlineStylesheetMaxBytes: 0 }) }).app;

function stylesOf(path: string): readonly string[] {
  const page = assets.routes.get(path);
  if (page === undefined) throw new Error(`the fixture build has no page at ${path}`);
  return page.styles;
}

/** The sources of the policy's `style-src`, in order. */
function styleSources(csp: string): string[] {
  const directive = csp.split(';').find((part) => part.trim().startsWith('style-src ')) ?? '';
  return directive.trim().split(' ').slice(1);
}

/** The document's `<head>`, as sent. */
function headOf(html: string): string {
  const head = /<head>([\s\S]*?)<\/head>/.exec(html)?.[1];
  if (head === undefined) throw new Error('the document has no head');
  return head;
}

describe("a page's stylesheet", () => {
  test('is one hashed CSS file under /assets/ per page, in the manifest', () => {
    const [home, ...more] = stylesOf('/');
    expect(more).toEqual([]);
    expect(home).toMatch(/^\/assets\/home-[A-Z0-9]+\.css$/);
    expect(stylesOf('/styles/styled')).toEqual([expect.stringMatching(/^\/assets\/styled-[A-Z0-9]+\.css$/)]);
  });

  test('over the inline limit, is linked from the head, before any script, and the document inlines no CSS', async () => {
    const res = await request(linked).get('/').set('User-Agent', DESKTOP_CHROME).expect(200);
    const head = headOf(res.text);
    const link = `<link rel="stylesheet" href="${stylesOf('/')[0]}"/>`;
    expect(head).toContain(link);
    const firstScript = head.indexOf('<script');
    expect(firstScript).toBeGreaterThan(-1);
    expect(head.indexOf(link)).toBeLessThan(firstScript);
    expect(res.text).not.toContain('<style');
    expect(res.text.match(/rel="stylesheet"/g)).toHaveLength(1);
  });

  test('within the inline limit, travels inside the head as the file holds it, before any script, and nothing is linked', async () => {
    const res = await request(app).get('/').set('User-Agent', DESKTOP_CHROME).expect(200);
    const head = headOf(res.text);
    const [href = ''] = stylesOf('/');
    const css = await readFile(join(FIXTURE_CLIENT_DIR, 'assets', href.slice('/assets/'.length)), 'utf8');
    const style = `<style data-href="${href}">${css}</style>`;
    expect(head).toContain(style);
    expect(head.indexOf(style)).toBeLessThan(head.indexOf('<script'));
    expect(res.text).not.toContain('rel="stylesheet"');
  });

  test('is inlined only up to the limit, and never when its text could end the style element', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'inline-styles-'));
    try {
      await mkdir(join(dir, 'assets'));
      const sheets = { small: 'p{color:red}', large: `p{color:red}${' '.repeat(100)}`, closing: 'p::after{content:"</STYLE>"}' };
      for (const [name, css] of Object.entries(sheets)) await writeFile(join(dir, 'assets', `${name}.css`), css);
      const page = (name: string) => ({ script: '/assets/x.js', preloads: [], styles: [`/assets/${name}.css`] });
      await writeFile(join(dir, MANIFEST_FILE), JSON.stringify({ routes: { '/a': page('small'), '/b': page('large'), '/c': page('closing') } }));
      const loaded = loadClientAssets(dir, { inlineStylesheetMaxBytes: 50 });
      expect([...loaded.inlineStyles.keys()]).toEqual(['/assets/small.css']);
      expect(loaded.inlineStyles.get('/assets/small.css')).toBe(sheets.small);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('holds the rules of the CSS its page module imports, and the framework rules its client shows', async () => {
    const css = (
      await request(app)
        .get(stylesOf('/')[0] ?? '')
        .expect(200)
    ).text;
    expect(css).toContain('.app-main{max-width:48rem');
    expect(css).toContain('.sr-only{');
    expect(css).toContain('html.nav-pending:before{');
    const styled = (
      await request(app)
        .get(stylesOf('/styles/styled')[0] ?? '')
        .expect(200)
    ).text;
    expect(styled).toContain('.styled-heading{color:');
    expect(styled).not.toContain('.app-main');
  });

  test('is served as text/css with immutable caching', async () => {
    const res = await request(app)
      .get(stylesOf('/')[0] ?? '')
      .set('Accept-Encoding', 'identity');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.text).toBe(await readFile(join(assets.dir, (stylesOf('/')[0] ?? '').replace('/assets/', '')), 'utf8'));
  });

  test.each(['br', 'gzip'] as const)('is served %s-compressed, as the build compressed it', async (encoding) => {
    const { server, origin } = await listen(app);
    try {
      const compressed = await getRaw(`${origin}${stylesOf('/')[0]}`, encoding);
      const identity = await getRaw(`${origin}${stylesOf('/')[0]}`, 'identity');
      expect(compressed.encoding).toBe(encoding);
      expect(compressed.body.length).toBeLessThan(identity.body.length);
    } finally {
      await close(server);
    }
  });

  test("is allowed by the page's policy as 'self' and by the hash of each inline one, each once, never by 'unsafe-inline'", async () => {
    const res = await request(app).get('/').expect(200);
    const csp = String(res.headers['content-security-policy']);
    const hashes = new Set([...assets.inlineStyles.values()].map((css) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`));
    expect(hashes.size).toBeGreaterThan(1);
    // Fewer hashes than stylesheets: pages of the fixture share a stylesheet's text, and so its hash.
    expect(hashes.size).toBeLessThan(assets.inlineStyles.size);
    expect(styleSources(csp)).toEqual(["'self'", ...hashes]);
    expect(csp).not.toContain('unsafe-inline');
    const none = await request(linked).get('/').expect(200);
    expect(styleSources(String(none.headers['content-security-policy']))).toEqual(["'self'"]);
  });

  test("is in the navigation's route table, so an in-place navigation brings it", async () => {
    const res = await request(app).get('/').set('User-Agent', DESKTOP_CHROME).expect(200);
    const table = await routeTableOf(app, res.text);
    const styled = table.find((entry: unknown) => typeof entry === 'object' && entry !== null && new RegExp(String(Reflect.get(entry, 'source')), 'i').test('/styles/styled'));
    expect(styled).toMatchObject({ styles: stylesOf('/styles/styled') });
  });
});

describe('status pages', () => {
  test.each([
    ['404', '/no/such/page', 404],
    ['500', '/fixtures/throw', 500],
    ['405', '/', 405],
  ] as const)('link no stylesheet: the %s page keeps its one inline style, allowed by its hash', async (_name, path, status) => {
    const res = await (status === 405 ? request(app).post(path) : request(app).get(path)).set('Accept', 'text/html');
    expect(res.status).toBe(status);
    expect(res.text).not.toContain('rel="stylesheet"');
    expect(res.text).not.toContain('<script');
    expect(res.text.match(/<style>/g)).toHaveLength(1);
    const csp = String(res.headers['content-security-policy']);
    expect(styleSources(csp)).toEqual(["'self'", expect.stringMatching(/^'sha256-[A-Za-z0-9+/]+=*'$/)]);
    expect(csp).not.toContain('unsafe-inline');
  });

  test("the client's status views take the status pages' rules", async () => {
    const framework = await readFile(join(import.meta.dirname, '..', '..', 'client', 'framework.css'), 'utf8');
    const statusRules = STATUS_VIEW_CSS.split('\n').filter((line) => line.startsWith('.status'));
    expect(statusRules.length).toBeGreaterThan(3);
    // Compared without comments, whitespace, a last `;` or a leading zero: the file is formatted, the constant is not.
    const compact = (css: string) =>
      css
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\s+/g, '')
        .replace(/;}/g, '}')
        .replace(/\b0\./g, '.');
    for (const rule of statusRules) expect(compact(framework)).toContain(compact(rule));
  });
});

describe('a manifest written before pages had stylesheets', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'old-manifest-'));
    await writeFile(join(dir, MANIFEST_FILE), JSON.stringify({ routes: { '/': { script: '/assets/home-OLD.js', preloads: [] } } }));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test('stops the start, naming the route and saying to build again', () => {
    expect(() => loadClientAssets(dir)).toThrow(/route "\/" has no list of stylesheets.*npm run build/);
  });
});
