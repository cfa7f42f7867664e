import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { NAVIGATION_HEADER, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { asHydrating, buildApp } from '../support/build-app.ts';
import { DESKTOP_CHROME } from '../support/http-client.ts';
import { navigationLines } from '../support/navigation-data-lines.ts';

/**
 * Which title each tag falls back to (docs/building-an-app.md, "Head tags"): `og:title` is the
 * Open Graph title when the page gives one, else the page's own title, else the site's name;
 * an empty title counts as none, in `<title>` and in `og:title` alike. The document and an
 * in-place navigation's data say the same.
 */

const SITE = { name: 'Shop' };

const { routes, assets } = asHydrating([
  defineRoute({ path: '/both', component: () => <h1>BOTH</h1>, head: { title: 'Products', openGraph: { title: 'Everything we sell' } } }),
  defineRoute({ path: '/empty', component: () => <h1>EMPTY</h1>, head: { title: '' } }),
  defineRoute({ path: '/own', component: () => <h1>OWN</h1>, head: { title: 'Products' } }),
  defineRoute({ path: '/none', component: () => <h1>NONE</h1> }),
]);

function headOf(html: string): string {
  return /<head>([\s\S]*?)<\/head>/.exec(html)?.[1] ?? '';
}

async function documentHead(path: string): Promise<string> {
  const res = await request(buildApp(routes, { assets, site: SITE }).app)
    .get(path)
    .set('User-Agent', DESKTOP_CHROME);
  expect(res.status).toBe(200);
  return headOf(res.text);
}

/** The head an in-place navigation gets: its title and the og:title tag's content. */
async function navigationHead(path: string): Promise<{ title: unknown; ogTitle: unknown }> {
  const res = await request(buildApp(routes, { assets, site: SITE }).app)
    .get(path)
    .set({ [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: 'n1', 'User-Agent': DESKTOP_CHROME });
  const [meta] = navigationLines(res.text);
  const head: unknown = typeof meta === 'object' && meta !== null ? Reflect.get(meta, 'head') : undefined;
  const tags: unknown = typeof head === 'object' && head !== null ? Reflect.get(head, 'meta') : undefined;
  const ogTitle = Array.isArray(tags) ? tags.find((tag: unknown) => typeof tag === 'object' && tag !== null && Reflect.get(tag, 'value') === 'og:title') : undefined;
  return {
    title: typeof head === 'object' && head !== null ? Reflect.get(head, 'title') : undefined,
    ogTitle: typeof ogTitle === 'object' && ogTitle !== null ? Reflect.get(ogTitle, 'content') : undefined,
  };
}

describe('title fallbacks', () => {
  test.each([
    ['/both', 'a title and an Open Graph title: og:title is the latter', 'Products · Shop', 'Everything we sell'],
    ['/empty', "title '': the site's name in <title> and in og:title", 'Shop', 'Shop'],
    ['/own', "a title alone: og:title is the page's own title, without the site's name", 'Products · Shop', 'Products'],
    ['/none', "no title: the site's name in both", 'Shop', 'Shop'],
  ])('%s (%s)', async (path, _case, title, ogTitle) => {
    const head = await documentHead(path);
    expect(head).toContain(`<title>${title}</title>`);
    expect(head.match(/property="og:title"/g)).toHaveLength(1);
    expect(head).toContain(`<meta property="og:title" content="${ogTitle}"/>`);
    expect(await navigationHead(path)).toEqual({ title, ogTitle });
  });
});
