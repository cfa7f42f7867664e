import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { buildApp } from '../support/build-app.ts';

/**
 * Head tags' defaults and empty values (docs/building-an-app.md, "Head tags"): `og:type` is
 * `website` unless the page says otherwise, an http URL is as good as an https one, and a field
 * given as '' writes no empty tag.
 */

const routes = [
  defineRoute({ path: '/plain', component: () => <h1>PLAIN</h1>, head: { title: 'Plain' } }),
  defineRoute({
    path: '/http',
    component: () => <h1>HTTP</h1>,
    head: { canonical: 'http://legacy.example.org/page', openGraph: { image: 'http://legacy.example.org/card.png' } },
  }),
  defineRoute({ path: '/colon', component: () => <h1>COLON</h1>, head: { canonical: '/docs/a:b' } }),
  defineRoute({ path: '/blank', component: () => <h1>BLANK</h1>, head: { description: '', robots: '', openGraph: { type: '' } } }),
];

function headOf(html: string): string {
  return /<head>([\s\S]*?)<\/head>/.exec(html)?.[1] ?? '';
}

async function headAt(path: string): Promise<string> {
  const { app } = buildApp(routes, { publicOrigin: new URL('https://shop.example.com'), site: { name: 'Shop', description: 'The default.' } });
  const res = await request(app).get(path);
  expect(res.status).toBe(200);
  return headOf(res.text);
}

describe('head tag defaults', () => {
  test('og:type is website when the page names none', async () => {
    expect(await headAt('/plain')).toContain('<meta property="og:type" content="website"/>');
  });

  test('an http URL is kept as it is, for the canonical link, og:url and og:image', async () => {
    const head = await headAt('/http');
    expect(head).toContain('<link rel="canonical" href="http://legacy.example.org/page"/>');
    expect(head).toContain('<meta property="og:url" content="http://legacy.example.org/page"/>');
    expect(head).toContain('<meta property="og:image" content="http://legacy.example.org/card.png"/>');
  });

  test("a field given as '' writes no tag at all, never an empty one", async () => {
    const head = await headAt('/blank');
    expect(head).not.toContain('content=""');
    expect(head).not.toMatch(/name="description"|name="robots"|property="og:description"|property="og:type"/);
    // The rest of the head is there (the control).
    expect(head).toContain('<meta property="og:site_name" content="Shop"/>');
  });

  test('a path with a colon after its start is a path, resolved against the public origin', async () => {
    expect(await headAt('/colon')).toContain('<link rel="canonical" href="https://shop.example.com/docs/a:b"/>');
  });
});
