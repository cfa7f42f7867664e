import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { randomText } from '../../server/security/random-pool.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { buildApp } from '../support/build-app.ts';

describe('random values from the pool', () => {
  test('never repeat, across the batches the pool draws (a batch holds 256 values of 16 bytes)', () => {
    const values = Array.from({ length: 1_000 }, () => randomText(16, 'base64url'));
    expect(new Set(values).size).toBe(values.length);
    expect(values.every((value) => Buffer.from(value, 'base64url').length === 16)).toBe(true);
  });

  test('an odd size that does not fit what is left of a batch comes whole from the next', () => {
    const values = Array.from({ length: 600 }, () => randomText(13, 'base64'));
    expect(new Set(values).size).toBe(values.length);
    expect(values.every((value) => Buffer.from(value, 'base64').length === 13)).toBe(true);
  });

  test('on the wire: 600 pages get 600 different CSP nonces and form tokens', async () => {
    const { app } = buildApp([defineRoute({ path: '/', component: () => 'page', action: () => ({}) })]);
    const nonces = new Set<string>();
    const tokens = new Set<string>();
    for (let i = 0; i < 600; i += 1) {
      const res = await request(app).get('/').expect(200);
      nonces.add(/'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1] ?? '');
      tokens.add(/csrf=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1] ?? '');
    }
    expect(nonces.size).toBe(600);
    expect(tokens.size).toBe(600);
    expect(nonces.has('')).toBe(false);
    expect(tokens.has('')).toBe(false);
  });
});
