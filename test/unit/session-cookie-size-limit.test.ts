import type { Request, Response } from 'express';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createCookieSessionStorage, MAX_SESSION_COOKIE_BYTES, SessionTooLargeError } from '../../server/sessions/cookie-session.ts';
import { buildApp } from '../support/build-app.ts';

const SECRET = 'session-secret-for-tests-at-least-32-chars';

/**
 * A note of NOTE_FITS characters makes a `Set-Cookie` of exactly 4,096 bytes: 94 bytes of name,
 * dot, signature and attributes (`__session=`, `.`, 43 characters of HMAC, `; Path=/; HttpOnly;
 * Secure; SameSite=Lax`) around the 4,002 characters of base64url that `{"note":"x…"}` (3,001
 * bytes of JSON) becomes. One character more is 3,002 bytes of JSON, 4,003 of base64url: one
 * byte over.
 */
const NOTE_FITS = 2990;

/** An app whose `/remember?size=n` stores a note of n characters in the session, and answers 413 with the size of a refused cookie. */
function rememberingApp() {
  const sessions = createCookieSessionStorage({ cookie: { secrets: [SECRET] } });
  return buildApp([], {
    middleware: (router) => {
      router.get('/remember', async (req: Request, res: Response) => {
        const session = await sessions.getSession(req.get('cookie'));
        session.set('note', 'x'.repeat(Number(req.query.size)));
        try {
          res.append('Set-Cookie', await sessions.commitSession(session)).sendStatus(204);
        } catch (error) {
          if (!(error instanceof SessionTooLargeError)) throw error;
          res.status(413).json({ cookie: error.cookieName, bytes: error.bytes });
        }
      });
    },
  });
}

describe('the size a session cookie may have', () => {
  test('a Set-Cookie of exactly 4,096 bytes is sent; one byte more is refused, naming its size', async () => {
    const { app } = rememberingApp();
    const fits = await request(app).get(`/remember?size=${NOTE_FITS}`).expect(204);
    const [cookie] = fits.headers['set-cookie'] as unknown as string[];
    expect(Buffer.byteLength(cookie ?? '')).toBe(MAX_SESSION_COOKIE_BYTES);
    const over = await request(app)
      .get(`/remember?size=${NOTE_FITS + 1}`)
      .expect(413);
    expect(over.body).toEqual({ cookie: '__session', bytes: MAX_SESSION_COOKIE_BYTES + 1 });
    expect(over.headers['set-cookie']).toBeUndefined();
  });
});
