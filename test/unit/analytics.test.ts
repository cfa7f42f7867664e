import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { buildApp } from '../support/build-app.ts';
import { unitRoutes } from '../support/pages.tsx';

function scriptTags(html: string): string[] {
  return html.match(/<script\b[^>]*>/g) ?? [];
}

function nonceOf(csp: unknown): string {
  const match = /'nonce-([^']+)'/.exec(String(csp));
  if (match?.[1] === undefined) throw new Error('no nonce');
  return match[1];
}

describe('hosting-provider analytics scripts', () => {
  test('are off by default: no script on pages or status pages', async () => {
    const { app } = buildApp(unitRoutes());
    for (const path of ['/users/1', '/missing', '/throw-in-load']) {
      const res = await request(app).get(path);
      expect(res.text).not.toContain('/_vercel/');
      expect(scriptTags(res.text)).toEqual([]);
    }
  });

  test('load from the default same-origin paths, deferred and with the nonce, on every page', async () => {
    const { app } = buildApp(unitRoutes(), { analytics: { pageViews: true, speedInsights: true } });
    for (const path of ['/users/1', '/missing', '/%E0%A4%A', '/throw-in-load', '/status-in-load/forbidden']) {
      const res = await request(app).get(path);
      const nonce = nonceOf(res.headers['content-security-policy']);
      expect(scriptTags(res.text), path).toEqual([
        `<script src="/_vercel/insights/script.js" defer="" nonce="${nonce}">`,
        `<script src="/_vercel/speed-insights/script.js" defer="" nonce="${nonce}">`,
      ]);
      // Same-origin scripts need nothing beyond 'self' and the nonce.
      expect(String(res.headers['content-security-policy'])).toMatch(/connect-src 'self'$/);
    }
  });

  test('each switches on alone', async () => {
    const { app } = buildApp(unitRoutes(), { analytics: { speedInsights: true } });
    const res = await request(app).get('/missing');
    expect(res.text).toContain('/_vercel/speed-insights/script.js');
    expect(res.text).not.toContain('/_vercel/insights/script.js');
  });

  test('load from a configured URL, and the CSP grants exactly its origin', async () => {
    const { app } = buildApp(unitRoutes(), {
      analytics: { pageViews: 'https://analytics.example.com/a.js', speedInsights: 'https://vitals.example.net/s.js' },
    });
    const res = await request(app).get('/users/1');
    const csp = String(res.headers['content-security-policy']);
    expect(res.text).toContain('src="https://analytics.example.com/a.js" defer=""');
    expect(res.text).toContain('src="https://vitals.example.net/s.js" defer=""');
    expect(csp).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic' https:\/\/analytics\.example\.com https:\/\/vitals\.example\.net;/);
    expect(csp).toContain("connect-src 'self' https://analytics.example.com https://vitals.example.net");
  });
});
