import request from 'supertest';
import { describe, expect, test } from 'vitest';
import type { AppOptions } from '../../server/app.ts';
import { clientAddress } from '../../server/security/client-address.ts';
import { VITALS_ENDPOINT } from '../../shared/protocol/telemetry.ts';
import { buildApp } from '../support/build-app.ts';
import { unitRoutes } from '../support/pages.tsx';

const SPOOFED = {
  'X-Forwarded-For': '203.0.113.9',
  'X-Forwarded-Host': 'evil.example.net',
  'X-Forwarded-Proto': 'https',
};

async function completion(trustProxy: AppOptions['trustProxy'], headers: Record<string, string>) {
  const { app, logs } = buildApp(unitRoutes(), trustProxy === undefined ? {} : { trustProxy });
  const res = await request(app).get('/throw-in-load').set('Host', 'app.internal').set(headers);
  return { res, line: logs.find((entry) => entry.msg === 'request completed') };
}

describe('forwarded headers', () => {
  test("are ignored by default: address, protocol and host are the connection's own", async () => {
    const { res, line } = await completion(undefined, SPOOFED);
    expect(line).toMatchObject({ ip: expect.stringMatching(/127\.0\.0\.1$/), protocol: 'http' });
    expect(res.text).toContain('while loading app.internal (see');
    expect(res.text).not.toContain('evil.example.net');
  });

  test('are believed from a trusted proxy', async () => {
    const { res, line } = await completion('loopback', SPOOFED);
    expect(line).toMatchObject({ ip: '203.0.113.9', protocol: 'https' });
    expect(res.text).toContain('while loading evil.example.net (see');
  });

  test('are not believed when the peer is not among the trusted addresses', async () => {
    const { res, line } = await completion(['10.0.0.0/8'], SPOOFED);
    expect(line).toMatchObject({ ip: expect.stringMatching(/127\.0\.0\.1$/), protocol: 'http' });
    expect(res.text).not.toContain('evil.example.net');
  });

  test('count hops: with one trusted hop the client is the last address added', async () => {
    const { line } = await completion(1, { 'X-Forwarded-For': '198.51.100.1, 203.0.113.9' });
    expect(line).toMatchObject({ ip: '203.0.113.9' });
  });

  test('name the host without its port on the error page', async () => {
    const { res } = await completion('loopback', { 'X-Forwarded-Host': 'shop.example.com:8443' });
    expect(res.text).toContain('while loading shop.example.com (see');
    expect(res.text).not.toContain('8443');
  });

  test('take the first protocol a trusted proxy lists', async () => {
    const { line } = await completion('loopback', { 'X-Forwarded-Proto': 'https, http' });
    expect(line).toMatchObject({ protocol: 'https' });
  });

  test('lose to a configured public origin even when untrusted: Host is not used either', async () => {
    const { app } = buildApp(unitRoutes(), { publicOrigin: new URL('https://www.example.org') });
    const res = await request(app).get('/throw-in-load').set('Host', 'attacker.example').set(SPOOFED);
    expect(res.text).toContain('while loading www.example.org (see');
    expect(res.text).not.toContain('attacker.example');
  });

  test('never beat a configured public origin', async () => {
    const { app } = buildApp(unitRoutes(), { trustProxy: true, publicOrigin: new URL('https://www.example.org') });
    const res = await request(app).get('/throw-in-load').set(SPOOFED);
    expect(res.text).toContain('while loading www.example.org (see');
    expect(res.text).not.toContain('evil.example.net');
  });
});

describe('streamed HTML behind a proxy', () => {
  test('asks proxies not to buffer it', async () => {
    const { app } = buildApp(unitRoutes());
    const res = await request(app).get('/slow');
    expect(res.headers['x-accel-buffering']).toBe('no');
  });
});

describe('X-Forwarded-For that is not an address (TRUST_PROXY=true believes any text there)', () => {
  const JUNK = 'x'.repeat(8_000);

  function postVital(app: Parameters<typeof request>[0], forwardedFor: string) {
    return request(app).post(VITALS_ENDPOINT).set('X-Forwarded-For', forwardedFor).set('Content-Type', 'application/json').send('{}');
  }

  test("never makes a rate-limit bucket of its own: every such value shares the peer's", async () => {
    const { app } = buildApp(unitRoutes(), { trustProxy: true, telemetry: { enabled: true, ratePerMinute: 3 } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await postVital(app, `${i}-${JUNK}`)).status);
    // 400: the empty report is refused after the limiter let it through; 429: the limit.
    expect(statuses).toEqual([400, 400, 400, 429, 429, 429]);
  });

  test('while valid addresses still get a bucket each', async () => {
    const { app } = buildApp(unitRoutes(), { trustProxy: true, telemetry: { enabled: true, ratePerMinute: 2 } });
    for (const address of ['203.0.113.1', '203.0.113.2', '2001:db8::1', '203.0.113.3']) {
      expect((await postVital(app, address)).status, address).toBe(400);
      expect((await postVital(app, address)).status, address).toBe(400);
    }
    expect((await postVital(app, '203.0.113.1')).status).toBe(429);
    expect((await postVital(app, '2001:db8::1')).status).toBe(429);
  });

  test("is not what the completion line logs as the address: the peer's is", async () => {
    const { app, logs } = buildApp(unitRoutes(), { trustProxy: true });
    await request(app).get('/users/1').set('X-Forwarded-For', JUNK);
    await request(app).get('/users/1').set('X-Forwarded-For', '<script>, 203.0.113.9');
    await request(app).get('/users/1').set('X-Forwarded-For', '198.51.100.7');
    const addresses = logs.filter((line) => line.msg === 'request completed').map((line) => line.ip);
    expect(addresses).toEqual([expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/), expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/), '198.51.100.7']);
  });

  test('is believed up to 64 characters, the longest an address with a short zone id takes, and no further', async () => {
    const { app, logs } = buildApp(unitRoutes(), { trustProxy: true });
    // Both are addresses to isIP; only the length tells them apart.
    const longest = `fe80::1%${'a'.repeat(56)}`;
    await request(app).get('/users/1').set('X-Forwarded-For', longest);
    await request(app).get('/users/1').set('X-Forwarded-For', `${longest}a`);
    const addresses = logs.filter((line) => line.msg === 'request completed').map((line) => line.ip);
    expect(addresses).toEqual([longest, expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/)]);
  });

  test('nor is the lack of one: a trusted proxy that names none leaves the peer, if any', () => {
    // A socket already closed has no peer address either; Express then gives no req.ip.
    const req = { app: { get: () => true }, ip: undefined, socket: { remoteAddress: undefined } };
    expect(clientAddress(req as unknown as Parameters<typeof clientAddress>[0])).toBeUndefined();
  });
});
