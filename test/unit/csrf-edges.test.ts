import { createHmac } from 'node:crypto';
import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { createCsrfCheck, CSRF_COOKIE, issueToken } from '../../server/security/csrf.ts';
import { FORM_TOKEN_FIELD } from '../../shared/protocol/form-token-field.ts';
import { defineRoute, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { buildApp, type LogLine, type TestApp } from '../support/build-app.ts';
import { closeTestServers, listenForTest } from '../support/http-client.ts';
import { rawRequest } from '../support/raw-http.ts';

/**
 * The edges of the cross-site check (docs/security.md, "Cross-site request forgery") that the
 * common cases of forms.test.tsx leave open: a request without a host to compare an `Origin`
 * with, and tokens that are there but empty.
 */

const SECRET = 'csrf-edges-secret-0123456789-abcdefghijkl';

function formApp(): TestApp & { readonly runs: number[] } {
  const runs: number[] = [];
  const routes: RouteDefinition[] = [
    defineRoute({
      path: '/note',
      component: () => null,
      action: () => {
        runs.push(1);
        return { saved: true };
      },
    }),
  ];
  return { ...buildApp(routes, { forms: { secret: SECRET } }), runs };
}

function refusals(logs: readonly LogLine[]): unknown[] {
  return logs.filter((line) => line.msg === 'csrf refused').map((line) => line.reason);
}

afterEach(closeTestServers);

describe('an Origin with no host to compare it with', () => {
  async function postWithoutHost(origin: string): Promise<{ status: number; body: string; built: ReturnType<typeof formApp> }> {
    const built = formApp();
    const listening = await listenForTest(built.app);
    const body = 'name=Ada';
    const res = await rawRequest(
      listening.port,
      `POST /note HTTP/1.0\r\nOrigin: ${origin}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    return { status: res.status, body: res.body, built };
  }

  // `http://undefined`: what a host-less request's own origin would read as, were it made from `req.host` regardless.
  test.each(['http://evil.example', 'http://undefined', 'not a URL at all'])(
    'an HTTP/1.0 post without Host and with Origin: %s gets 403, origin mismatch, and the action never runs',
    async (origin) => {
      const { status, body, built } = await postWithoutHost(origin);
      expect(status).toBe(403);
      expect(body).toMatch(/<title>403: [^<]+<\/title>/);
      expect(built.runs).toEqual([]);
      expect(refusals(built.logs)).toEqual(['origin mismatch']);
    },
  );
});

describe('empty tokens count as missing', () => {
  const valid = issueToken(SECRET);

  test.each([
    ['an empty cookie beside a valid field', '', valid],
    ['a valid cookie beside an empty field', valid, ''],
    ['both empty', '', ''],
  ])('%s: 403, missing token', async (_case, cookie, field) => {
    const { app, runs, logs } = formApp();
    const res = await request(app)
      .post('/note')
      .set('Cookie', `${CSRF_COOKIE}=${cookie}`)
      .type('form')
      .send({ name: 'Ada', [FORM_TOKEN_FIELD]: field });
    expect(res.status).toBe(403);
    expect(runs).toEqual([]);
    expect(refusals(logs)).toEqual(['missing token']);
  });

  test('the same valid token in both runs the action (the control case)', async () => {
    const { app, runs, logs } = formApp();
    const res = await request(app)
      .post('/note')
      .set('Cookie', `${CSRF_COOKIE}=${valid}`)
      .type('form')
      .send({ name: 'Ada', [FORM_TOKEN_FIELD]: valid });
    expect(res.status).toBe(200);
    expect(runs).toEqual([1]);
    expect(refusals(logs)).toEqual([]);
  });
});

describe('what makes a token', () => {
  /** `nonce.signature` signed with the app's own secret, whatever the nonce. */
  function signed(nonce: string): string {
    return `${nonce}.${createHmac('sha256', SECRET).update(nonce).digest('base64url')}`;
  }

  test.each([
    ['a nonce shorter than 128 bits', 'AAAA'],
    ['a nonce with a character base64url has not', 'AAAAAAAAAAAAAAAAAAAAA+'],
    ['a nonce of 22 good characters and one more before them', '+AAAAAAAAAAAAAAAAAAAAAA'],
    ['a nonce of 22 good characters and one more after them', 'AAAAAAAAAAAAAAAAAAAAAA+'],
    ['an empty nonce', ''],
  ])('%s, signed with the right secret, in both: 403, bad signature', async (_case, nonce) => {
    const { app, runs, logs } = formApp();
    const token = signed(nonce);
    const res = await request(app)
      .post('/note')
      .set('Cookie', `${CSRF_COOKIE}=${token}`)
      .type('form')
      .send({ name: 'Ada', [FORM_TOKEN_FIELD]: token });
    expect(res.status).toBe(403);
    expect(runs).toEqual([]);
    expect(refusals(logs)).toEqual(['bad signature']);
  });

  test('a nonce of 22 base64url characters so signed passes (the control case)', async () => {
    const { app, runs } = formApp();
    const token = signed('AAAAAAAAAAAAAAAAAAAAAA');
    const res = await request(app)
      .post('/note')
      .set('Cookie', `${CSRF_COOKIE}=${token}`)
      .type('form')
      .send({ name: 'Ada', [FORM_TOKEN_FIELD]: token });
    expect(res.status).toBe(200);
    expect(runs).toEqual([1]);
  });

  test('a secret of exactly 32 characters is enough; 31 is refused, naming CSRF_SECRET', () => {
    expect(() => createCsrfCheck({ secret: 'x'.repeat(32), publicOrigin: undefined })).not.toThrow();
    expect(() => createCsrfCheck({ secret: 'x'.repeat(31), publicOrigin: undefined })).toThrow(/CSRF_SECRET/);
  });
});
