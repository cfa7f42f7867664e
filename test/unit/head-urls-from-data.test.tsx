import request from 'supertest';
import { describe, expect, test } from 'vitest';
import type { PageHead } from '../../shared/api/head.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { buildApp, errorLines, LEVEL, type LogLine } from '../support/build-app.ts';

const PUBLIC_ORIGIN = new URL('https://shop.example.com');

function headOf(html: string): string {
  return /<head>([\s\S]*?)<\/head>/.exec(html)?.[1] ?? '';
}

function warnLines(logs: readonly LogLine[]): LogLine[] {
  return logs.filter((line) => line.level === LEVEL.warn);
}

/** A page whose head comes from its data, as a CMS entry's would. */
const routes = [
  defineRoute({
    path: '/entries/:id',
    component: () => <h1>ENTRY</h1>,
    load: ({ searchParams }) => ({ canonical: searchParams.get('canonical'), og: searchParams.get('og'), image: searchParams.get('image') }),
    head: (data: { canonical: string | null; og: string | null; image: string | null }): PageHead => ({
      title: 'Entry',
      ...(data.canonical === null ? {} : { canonical: data.canonical }),
      openGraph: { ...(data.og === null ? {} : { url: data.og }), ...(data.image === null ? {} : { image: data.image }) },
    }),
  }),
];

function get(app: Parameters<typeof request>[0], query: Record<string, string>) {
  return request(app).get(`/entries/1?${new URLSearchParams(query).toString()}`);
}

describe('a head URL from data that does not make an http(s) URL', () => {
  test('a canonical that does not parse: the page, without that tag, and one warn line naming route and field', async () => {
    const { app, logs } = buildApp(routes, { publicOrigin: PUBLIC_ORIGIN });
    const res = await get(app, { canonical: 'http:' });
    expect(res.status).toBe(200);
    const head = headOf(res.text);
    expect(head).toContain('<title>Entry · React Stream Shell</title>');
    expect(head).not.toContain('rel="canonical"');
    // og:url follows the canonical URL: left out with it.
    expect(head).not.toContain('og:url');
    expect(errorLines(logs)).toEqual([]);
    expect(warnLines(logs)).toEqual([expect.objectContaining({ route: '/entries/:id', field: 'canonical', msg: 'head URL left out' })]);
  });

  test.each([
    ['openGraph.url', { og: 'http:' }, 'og:url'],
    ['openGraph.image', { image: 'https://' }, 'og:image'],
    ['openGraph.url', { og: 'javascript:alert(1)' }, 'og:url'],
  ] as const)('%s %j: left out, the rest written, one warn line', async (field, query, tag) => {
    const { app, logs } = buildApp(routes, { publicOrigin: PUBLIC_ORIGIN });
    const res = await get(app, query);
    expect(res.status).toBe(200);
    const head = headOf(res.text);
    expect(head).not.toContain(`property="${tag}"`);
    expect(head).toContain('<link rel="canonical" href="https://shop.example.com/entries/1"/>');
    expect(errorLines(logs)).toEqual([]);
    expect(warnLines(logs)).toEqual([expect.objectContaining({ route: '/entries/:id', field, msg: 'head URL left out' })]);
  });

  test('without a public origin too, a URL with a scheme that does not parse is left out with a warn line', async () => {
    const { app, logs } = buildApp(routes);
    const res = await get(app, { canonical: 'https://' });
    expect(res.status).toBe(200);
    expect(headOf(res.text)).not.toContain('rel="canonical"');
    expect(warnLines(logs)).toEqual([expect.objectContaining({ route: '/entries/:id', field: 'canonical' })]);
  });

  test('a path from data is still resolved on the public origin, and an absolute URL kept, without a warning', async () => {
    const { app, logs } = buildApp(routes, { publicOrigin: PUBLIC_ORIGIN });
    const res = await get(app, { canonical: '/entries/one', image: 'https://cdn.example/card.png' });
    const head = headOf(res.text);
    expect(head).toContain('<link rel="canonical" href="https://shop.example.com/entries/one"/>');
    expect(head).toContain('<meta property="og:url" content="https://shop.example.com/entries/one"/>');
    expect(head).toContain('<meta property="og:image" content="https://cdn.example/card.png"/>');
    expect(warnLines(logs)).toEqual([]);
  });
});

describe('a fixed head that does not make an http(s) URL', () => {
  test('stops createApp, naming the route and the field', () => {
    const fixed = [defineRoute({ path: '/about', component: () => <h1>ABOUT</h1>, head: { canonical: 'http:' } })];
    expect(() => buildApp(fixed, { publicOrigin: PUBLIC_ORIGIN })).toThrow(/\/about.*canonical/);
  });
});
