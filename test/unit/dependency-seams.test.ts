import express, { type Response } from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineApp } from '../../server/index.ts';
import { helmetStaticHeaders, PERMISSIONS_POLICY } from '../../server/security/security-headers.ts';
import { createTestApp } from '../../server/testing/index.ts';
import { route } from '../../shared/index.ts';

/**
 * The two places where the framework goes around a dependency for speed (docs/design-costs.md#where-the-framework-goes-around-a-dependency),
 * held to what the dependency itself does, so that an upgrade of helmet, Express or Node that
 * changes it fails here rather than in production.
 */

/** Headers Node and the test's answer set themselves, not helmet. */
const NOT_HELMETS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

describe("helmet's headers, worked out once", () => {
  test('are exactly what helmet sets on a real Express response, as helmet is used', async () => {
    const plain = express().disable('x-powered-by');
    plain.use(helmet({ contentSecurityPolicy: false }));
    plain.get('/', (_req, res) => {
      res.end();
    });
    const res = await request(plain).get('/').expect(200);
    const fromHelmet = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !NOT_HELMETS.has(name)));
    const worked = Object.fromEntries(helmetStaticHeaders().map(([name, value]) => [name.toLowerCase(), value]));
    expect(Object.keys(worked).length).toBeGreaterThan(8);
    expect(worked).toEqual(fromHelmet);
  });
});

/** Every way Express and Node write an answer's head, as an app's own middleware may. */
const WAYS: ReadonlyArray<readonly [string, (res: Response) => void]> = [
  ['res.json', (res) => res.json({ ok: true })],
  ['res.send', (res) => res.send('text')],
  ['res.sendStatus', (res) => res.sendStatus(202)],
  ['res.redirect', (res) => res.redirect('/elsewhere')],
  ['res.end', (res) => res.end()],
  ['res.write then end', (res) => res.end(res.write('streamed') ? '' : '')],
  [
    'res.flushHeaders',
    (res) => {
      res.flushHeaders();
      res.end();
    },
  ],
  ['res.writeHead with an object', (res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('head as object')],
  ['res.writeHead with a list', (res) => res.writeHead(200, ['Content-Type', 'text/plain']).end('head as list')],
  ['res.writeHead with a reason', (res) => res.writeHead(200, 'Fine', { 'Content-Type': 'text/plain' }).end()],
];

const app = defineApp({
  routes: [route('/resource', { load: () => new Response('from a route') })],
  middleware: (router) => {
    for (const [way, answer] of WAYS) router.get(`/way/${encodeURIComponent(way)}`, (_req, res) => answer(res));
  },
});

describe("every answer's head, completed as it is written", () => {
  test.each(WAYS.map(([way]) => way))('%s in the app’s middleware carries the request id, helmet’s headers, the Permissions-Policy and a CSP', async (way) => {
    const { app: server } = createTestApp(app);
    const res = await request(server).get(`/way/${encodeURIComponent(way)}`);
    expect(res.status).toBeLessThan(400);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    for (const [name, value] of helmetStaticHeaders()) expect(res.headers[name.toLowerCase()], name).toBe(value);
    expect(res.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
  });
});
