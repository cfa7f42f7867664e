import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { routes as fixtureRoutes } from '../support/fixture-server-routes.tsx';
import { buildApp } from '../support/build-app.ts';

function headOf(html: string): string {
  return /<head>([\s\S]*?)<\/head>/.exec(html)?.[1] ?? '';
}

const routes = [
  defineRoute({
    path: '/articles/:slug',
    component: () => <h1>ARTICLE</h1>,
    load: ({ params }) => ({ title: `All about ${params.slug}`, summary: `A page on ${params.slug} & more.` }),
    head: (data: { title: string; summary: string }) => ({
      title: data.title,
      description: data.summary,
      openGraph: { type: 'article', image: '/images/card.png' },
    }),
  }),
  defineRoute({ path: '/private', component: () => <h1>PRIVATE</h1>, head: { title: 'Private', robots: 'noindex, nofollow', canonical: '/elsewhere' } }),
  defineRoute({ path: '/plain', component: () => <h1>PLAIN</h1> }),
];

describe('head tags', () => {
  test('title, description, canonical and Open Graph from the data, absolute from the public origin', async () => {
    const { app } = buildApp(routes, { publicOrigin: new URL('https://shop.example.com'), site: { name: 'Shop', description: 'The default.' } });
    const res = await request(app).get('/articles/tea?utm=x').set('Host', 'evil.example');
    const head = headOf(res.text);
    expect(head).toContain('<title>All about tea · Shop</title>');
    expect(head).toContain('<meta name="description" content="A page on tea &amp; more."/>');
    expect(head).toContain('<link rel="canonical" href="https://shop.example.com/articles/tea"/>');
    expect(head).toContain('<meta property="og:title" content="All about tea"/>');
    expect(head).toContain('<meta property="og:description" content="A page on tea &amp; more."/>');
    expect(head).toContain('<meta property="og:url" content="https://shop.example.com/articles/tea"/>');
    expect(head).toContain('<meta property="og:type" content="article"/>');
    expect(head).toContain('<meta property="og:site_name" content="Shop"/>');
    expect(head).toContain('<meta property="og:image" content="https://shop.example.com/images/card.png"/>');
    expect(head).not.toContain('evil.example');
    expect(head).not.toContain('robots');
  });

  test("robots and a canonical of the route's own choosing; the site's description by default", async () => {
    const { app } = buildApp(routes, { publicOrigin: new URL('https://shop.example.com'), site: { name: 'Shop', description: 'The default.' } });
    const head = headOf((await request(app).get('/private')).text);
    expect(head).toContain('<title>Private · Shop</title>');
    expect(head).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(head).toContain('<link rel="canonical" href="https://shop.example.com/elsewhere"/>');
    expect(head).toContain('<meta name="description" content="The default."/>');
  });

  test('without a public origin there is no canonical URL: absolute URLs never come from Host', async () => {
    const { app } = buildApp(routes);
    const head = headOf((await request(app).get('/plain').set('Host', 'evil.example')).text);
    expect(head).toContain('<title>React Stream Shell</title>');
    expect(head).not.toContain('canonical');
    expect(head).not.toContain('og:url');
    expect(head).not.toContain('evil.example');
  });

  test('the home page has a real description', async () => {
    const { app } = buildApp(fixtureRoutes.filter((route) => route.path === '/'));
    const head = headOf((await request(app).get('/')).text);
    expect(head).toMatch(/<meta name="description" content="[^"]{50,}"\/>/);
    expect(head).toContain('<title>Home · React Stream Shell</title>');
  });

  test('status pages stay noindex', async () => {
    const { app } = buildApp(routes, { site: { name: 'Shop' } });
    const res = await request(app).get('/missing');
    expect(res.status).toBe(404);
    expect(headOf(res.text)).toContain('<meta name="robots" content="noindex"/>');
  });
});
