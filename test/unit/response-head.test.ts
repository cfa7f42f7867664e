import type { IncomingMessage } from 'node:http';
import express, { type Express } from 'express';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { installResponseHead, prepareHead, setAnswerHead, writePreparedHead } from '../../server/http/response-head.ts';

const DEFAULTS = [
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Content-Type-Options', 'nosniff'],
] as const;

/** An app whose answers get their head completed, with a request id and a nonce as the real app gives them. */
function appWithHead(): Express {
  const app = express();
  // As createApp does: a header set before the head would take a prepared head off its fast path.
  app.disable('x-powered-by');
  installResponseHead(app, { defaults: DEFAULTS, policy: (nonce) => `script-src 'nonce-${nonce}'`, closing: () => false });
  let counter = 0;
  app.use((req, res, next) => {
    counter += 1;
    req.id = `req-${counter}`;
    res.locals.cspNonce = `nonce${counter}`;
    next();
  });
  return app;
}

describe('the head of every answer', () => {
  test('gets the request id, the defaults and the policy for its nonce, however it is written', async () => {
    const app = appWithHead();
    app.get('/send', (_req, res) => void res.send('sent'));
    app.get('/write', (_req, res) => {
      res.write('streamed ');
      res.end('text');
    });
    app.get('/flush', (_req, res) => {
      res.flushHeaders();
      res.end();
    });
    app.get('/json', (_req, res) => void res.status(503).json({ ok: false }));
    for (const path of ['/send', '/write', '/flush', '/json']) {
      const res = await request(app).get(path);
      expect(res.headers['x-frame-options'], path).toBe('SAMEORIGIN');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['x-request-id'], path).toMatch(/^req-\d+$/);
      const n = String(res.headers['x-request-id']).slice('req-'.length);
      expect(res.headers['content-security-policy'], path).toBe(`script-src 'nonce-nonce${n}'`);
    }
  });

  test('keeps a header the answer set itself, and what it passes to writeHead wins', async () => {
    const app = appWithHead();
    app.get('/own', (_req, res) => {
      res.setHeader('X-Frame-Options', 'DENY');
      res.setHeader('Content-Security-Policy', "default-src 'none'");
      res.end('own');
    });
    app.get('/given', (_req, res) => {
      res.writeHead(200, { 'X-Content-Type-Options': 'given', 'Content-Type': 'text/plain' });
      res.end('given');
    });
    const own = await request(app).get('/own');
    expect(own.headers['x-frame-options']).toBe('DENY');
    expect(own.headers['content-security-policy']).toBe("default-src 'none'");
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    const given = await request(app).get('/given');
    expect(given.headers['x-content-type-options']).toBe('given');
    expect(given.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  test('a prepared head is written as it is, with the request id, and headers set before it stay', async () => {
    const app = appWithHead();
    const head = prepareHead([
      ['Content-Type', 'text/plain'],
      ['Content-Length', '8'],
      ['X-Frame-Options', 'DENY'],
      ['Content-Security-Policy', "default-src 'none'"],
    ]);
    app.get('/prepared', (_req, res) => {
      writePreparedHead(res, 404, head);
      res.end('prepared');
    });
    app.get('/allow', (_req, res) => {
      res.setHeader('Allow', 'GET, HEAD');
      res.setHeader('X-Frame-Options', 'SAMEORIGIN');
      writePreparedHead(res, 405, head);
      res.end('prepared');
    });
    const prepared = await request(app).get('/prepared');
    expect(prepared.status).toBe(404);
    expect(prepared.text).toBe('prepared');
    // Exactly the prepared list, in its order, then the id: no default was added to it.
    const { rawHeaders } = (prepared as unknown as { res: IncomingMessage }).res;
    const names = rawHeaders.filter((_value, i) => i % 2 === 0);
    expect(names.slice(0, 5)).toEqual(['Content-Type', 'Content-Length', 'X-Frame-Options', 'Content-Security-Policy', 'X-Request-Id']);
    expect(prepared.headers['x-content-type-options']).toBeUndefined();
    const allow = await request(app).get('/allow');
    expect(allow.headers.allow).toBe('GET, HEAD');
    expect(allow.headers['x-frame-options']).toBe('DENY');
    expect(allow.headers['content-security-policy']).toBe("default-src 'none'");
    expect(allow.headers['x-request-id']).toMatch(/^req-\d+$/);
  });

  test("an answer's own list goes as the same head its headers set one by one would make, Node counting the length", async () => {
    const app = appWithHead();
    const own = ['content-type', 'application/json', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2', 'Cache-Control', 'no-store'];
    app.get('/one-by-one', (_req, res) => {
      for (let at = 0; at < own.length; at += 2) {
        const [name, value] = [own[at] as string, own[at + 1] as string];
        if (name === 'Set-Cookie') res.append(name, value);
        else res.setHeader(name, value);
      }
      res.end('{"ok":true}');
    });
    app.get('/list', (_req, res) => {
      expect(setAnswerHead(res, own)).toBe(true);
      res.end('{"ok":true}');
    });
    app.get('/set-before', (_req, res) => {
      res.setHeader('Vary', 'Cookie');
      // A header set before: the list is refused, and the caller sets its own one by one.
      expect(setAnswerHead(res, own)).toBe(false);
      res.end();
    });
    const heads = [];
    for (const path of ['/one-by-one', '/list']) {
      const res = await request(app).get(path);
      expect(res.text).toBe('{"ok":true}');
      const { rawHeaders } = (res as unknown as { res: IncomingMessage }).res;
      heads.push(rawHeaders.map((item) => item.replace(/^req-\d+$/, 'id').replace(/nonce\d+/, 'n')).filter((_item, at) => rawHeaders[at - 1] !== 'Date'));
    }
    expect(heads[1]).toEqual(heads[0]);
    expect(heads[1]).toContain('Content-Length');
    expect((await request(app).get('/set-before')).headers.vary).toBe('Cookie');
  });

  test("other apps in the same process keep Node's own writeHead", async () => {
    appWithHead();
    const plain = express();
    plain.get('/', (_req, res) => void res.send('plain'));
    const res = await request(plain).get('/');
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['x-request-id']).toBeUndefined();
  });
});
