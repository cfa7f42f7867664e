import { pathToRegexp } from 'path-to-regexp';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineRoute } from '../../shared/route-definition.ts';
import { asHydrating, buildApp } from '../support/build-app.ts';
import { DESKTOP_CHROME } from '../support/http-client.ts';
import { dataScripts, inlineScripts, pageDataOf } from '../support/page-data-scripts.ts';

/**
 * Every hydrating page carries the route table for in-place navigation in its data script
 * (server/render/client-routes.ts, data-stream.ts). Route paths are the app's own, but a path
 * is text like any other: one holding `</script>`, `<!--<script>` or a line separator must
 * neither end the script element nor change how the HTML parser reads it, and the browser
 * must get the table back exactly.
 */

const HOSTILE_PATHS = [
  '/a</script><script>window.__pwned=1</script>',
  // `!` is reserved by path-to-regexp: escaped, it is the literal character.
  '/b<\\!--<script>',
  '/c\u2028d\u2029e',
];

const { routes, assets } = asHydrating([
  defineRoute({ path: '/', component: () => <h1>Home</h1> }),
  ...HOSTILE_PATHS.map((path) => defineRoute({ path, component: () => <h1>Odd</h1> })),
]);

describe("the route table in a page's data script", () => {
  test('route paths holding </script>, <!--<script> or U+2028/U+2029 stay inert, and the table arrives intact', async () => {
    const res = await request(buildApp(routes, { assets }).app).get('/').set('User-Agent', DESKTOP_CHROME);
    expect(res.status).toBe(200);
    // The table is there at all (the control): each hostile path's pattern is in a data script.
    expect(dataScripts(res.text).join('')).toContain('pwned');
    for (const script of inlineScripts(res.text)) {
      expect(script).not.toMatch(/<\/script|<!--|<script/i);
      expect(script).not.toMatch(/[\u2028\u2029]/);
    }
    // The document holds exactly the script elements it was given: none was ended early or swallowed.
    expect(res.text.match(/<script\b/g)?.length).toBe(res.text.match(/<\/script>/g)?.length);
    expect(res.text).not.toContain('window.__pwned=1</script>');

    const page = pageDataOf(res.text);
    const table: unknown = typeof page === 'object' && page !== null ? Reflect.get(page, 'navigation') : undefined;
    if (!Array.isArray(table)) throw new Error('the page data holds no route table');
    const sources = table.map((entry) => (typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'source') : undefined));
    const expected = ['/', ...HOSTILE_PATHS].map((path) => pathToRegexp(path, { sensitive: false, end: true, trailing: true }).regexp.source);
    expect(sources).toEqual(expected);
    expect(new RegExp(String(sources[1]), 'i').test('/a</script><script>window.__pwned=1</script>')).toBe(true);
    expect(new RegExp(String(sources[2]), 'i').test('/b<!--<script>')).toBe(true);
    expect(new RegExp(String(sources[3]), 'i').test('/c\u2028d\u2029e')).toBe(true);
  });
});
