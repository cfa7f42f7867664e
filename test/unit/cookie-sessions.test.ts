import { createHmac } from 'node:crypto';
import request from 'supertest';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createCookieSessionStorage, MAX_SESSION_COOKIE_BYTES, SessionTooLargeError, type SessionStorage } from '../../server/sessions/cookie-session.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { forbidden, unauthorized } from '../../shared/api/status-helpers.ts';
import { buildApp } from '../support/build-app.ts';

interface Visitor {
  readonly user: string;
  readonly role: 'admin' | 'reader';
}

const SECRET = 'session-secret-for-tests-at-least-32-chars';
const OLD_SECRET = 'the-previous-session-secret-32-characters';

declare module '../../shared/api/route-definition.ts' {
  interface AppLoadContext {
    readonly visitor?: Visitor | undefined;
  }
}

/**
 * The guard of the guide, served as an app serves it: a sign-in answered by the app's own
 * middleware, sessions read in `getLoadContext`, the admin page deciding 401 and 403 from them.
 */
function sessionApp(sessions: SessionStorage<Visitor>) {
  return buildApp(
    [
      defineRoute({
        path: '/admin',
        component: ({ data }: { data: { user: string } }) => `admin page of ${data.user}`,
        load: ({ context }) => {
          if (context.visitor === undefined) unauthorized();
          if (context.visitor.role !== 'admin') forbidden();
          return { user: context.visitor.user };
        },
      }),
    ],
    {
      getLoadContext: async ({ request }) => {
        const session = await sessions.getSession(request.headers.get('cookie'));
        const user = session.get('user');
        const role = session.get('role');
        return { visitor: user === undefined || role === undefined ? undefined : { user, role } };
      },
      middleware: (router) => {
        router.get('/sign-in/:role', async (req, res) => {
          const session = await sessions.getSession(req.get('cookie'));
          session.set('user', 'ada');
          session.set('role', req.params.role === 'admin' ? 'admin' : 'reader');
          res.append('Set-Cookie', await sessions.commitSession(session)).redirect(303, '/admin');
        });
        router.get('/sign-out', async (req, res) => {
          res.append('Set-Cookie', await sessions.destroySession(await sessions.getSession(req.get('cookie')))).redirect(303, '/');
        });
      },
    },
  );
}

function cookiePair(setCookie: string | undefined): string {
  return (setCookie ?? '').split(';')[0] ?? '';
}

async function signIn(app: ReturnType<typeof sessionApp>['app'], role: 'admin' | 'reader'): Promise<string> {
  const res = await request(app).get(`/sign-in/${role}`).expect(303);
  const [setCookie] = res.headers['set-cookie'] as unknown as string[];
  return cookiePair(setCookie);
}

describe('sessions in a signed cookie', () => {
  // Made by each test that reads it (a getter), so a test always runs the storage as the module now is.
  const storage = () => createCookieSessionStorage<Visitor>({ cookie: { name: '__session', secrets: [SECRET] } });

  test('a sign-in sets one HttpOnly, Secure, SameSite=Lax cookie for the whole site', async () => {
    const { app } = sessionApp(storage());
    const res = await request(app).get('/sign-in/admin').expect(303);
    const cookies = res.headers['set-cookie'] as unknown as string[];
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(/^__session=[\w-]+\.[\w-]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
  });

  test('the guarded page: 401 without a session, 403 for a reader, 200 for an admin', async () => {
    const { app } = sessionApp(storage());
    await request(app).get('/admin').expect(401);
    await request(app)
      .get('/admin')
      .set('Cookie', await signIn(app, 'reader'))
      .expect(403);
    const res = await request(app)
      .get('/admin')
      .set('Cookie', await signIn(app, 'admin'))
      .expect(200);
    expect(res.text).toContain('admin page of ada');
  });

  test('a cookie whose data was changed, or that another secret signed, is no session: 401', async () => {
    const { app } = sessionApp(storage());
    const reader = await signIn(app, 'reader');
    const [name, value = ''] = reader.split('=');
    const [payload = '', signature] = value.split('.');
    const forged = Buffer.from(JSON.stringify({ user: 'ada', role: 'admin' })).toString('base64url');
    expect(Buffer.from(payload, 'base64url').toString()).toContain('reader');
    await request(app).get('/admin').set('Cookie', `${name}=${forged}.${signature}`).expect(401);
    const elsewhere = createCookieSessionStorage<Visitor>({ cookie: { secrets: ['another-app-entirely-with-its-own-secret'] } });
    const foreign = await elsewhere.getSession(undefined);
    foreign.set('user', 'ada');
    foreign.set('role', 'admin');
    await request(app)
      .get('/admin')
      .set('Cookie', cookiePair(await elsewhere.commitSession(foreign)))
      .expect(401);
  });

  test('a signature spelled other than as issued is no session, though it decodes to the same bytes: 401', async () => {
    const { app } = sessionApp(storage());
    const admin = await signIn(app, 'admin');
    await request(app).get('/admin').set('Cookie', admin).expect(200);
    // 32 bytes take 43 base64url characters, the last with two bits to spare: its neighbour in the alphabet decodes alike.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(admin.at(-1) ?? '');
    const neighbour = `${admin.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(neighbour.split('.')[1] ?? '', 'base64url')).toEqual(Buffer.from(admin.split('.')[1] ?? '', 'base64url'));
    for (const spelled of [`${admin}=`, `${admin}!!`, `${admin}.`.replace(/\.$/, '%3D'), neighbour]) {
      await request(app).get('/admin').set('Cookie', spelled).expect(401);
    }
  });

  test('a cookie that does not parse as a session is no session, never a 500', async () => {
    const { app } = sessionApp(storage());
    for (const value of ['', '.', 'abc', 'abc.', '.abc', '%%%.%%%', `${Buffer.from('[1]').toString('base64url')}.x`, 'a.b.c']) {
      await request(app).get('/admin').set('Cookie', `__session=${value}`).expect(401);
    }
  });

  test('rotation: with the new secret first, a cookie the old secret signed still holds its session', async () => {
    const before = createCookieSessionStorage<Visitor>({ cookie: { secrets: [OLD_SECRET] } });
    const after = createCookieSessionStorage<Visitor>({ cookie: { secrets: [SECRET, OLD_SECRET] } });
    const old = await before.getSession(undefined);
    old.set('user', 'ada');
    old.set('role', 'admin');
    const { app } = sessionApp(after);
    await request(app)
      .get('/admin')
      .set('Cookie', cookiePair(await before.commitSession(old)))
      .expect(200);
    // Only the first secret signs.
    const renewed = await after.commitSession(await after.getSession(cookiePair(await before.commitSession(old))));
    expect((await before.getSession(cookiePair(renewed))).has('user')).toBe(false);
    expect((await after.getSession(cookiePair(renewed))).get('role')).toBe('admin');
  });

  test('a sign-out expires the cookie', async () => {
    const { app } = sessionApp(storage());
    const res = await request(app)
      .get('/sign-out')
      .set('Cookie', await signIn(app, 'admin'))
      .expect(303);
    const [cleared] = res.headers['set-cookie'] as unknown as string[];
    expect(cleared).toMatch(/^__session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax$/);
  });

  test('the session never reaches the log: not the cookie, not its data', async () => {
    const { app, logs } = sessionApp(storage());
    const cookie = await signIn(app, 'admin');
    await request(app).get('/admin').set('Cookie', cookie).expect(200);
    const written = JSON.stringify(logs);
    expect(written).not.toContain(cookie.split('=')[1]);
    expect(written).not.toContain('"ada"');
  });

  test('a session too large for a cookie is refused when committed, naming the cookie', async () => {
    const sessions = storage();
    const session = await sessions.getSession(undefined);
    session.set('user', 'x'.repeat(MAX_SESSION_COOKIE_BYTES));
    await expect(sessions.commitSession(session)).rejects.toBeInstanceOf(SessionTooLargeError);
    await expect(sessions.commitSession(session)).rejects.toThrow(/__session .* over the 4096/);
  });

  test('a key named __proto__ stays a key', async () => {
    const sessions = storage();
    const session = await sessions.getSession(undefined);
    const loaded = await sessions.getSession(`__session=${cookiePair(await sessions.commitSession(session)).split('=')[1]}`);
    expect(loaded.data).toEqual({});
    const crafted = createCookieSessionStorage<Record<string, unknown>>({ cookie: { secrets: [SECRET] } });
    const raw = await crafted.getSession(undefined);
    raw.set('__proto__', { role: 'admin' });
    const back = await crafted.getSession(cookiePair(await crafted.commitSession(raw)));
    expect(back.has('__proto__')).toBe(true);
    expect(back.get('role')).toBeUndefined();
  });

  test('a missing or short secret stops the app at once', () => {
    expect(() => createCookieSessionStorage({ cookie: { secrets: [] } })).toThrow('at least one secret');
    expect(() => createCookieSessionStorage({ cookie: { secrets: ['short'] } })).toThrow('at least 32 characters');
  });
  test('a cookie signed with the secret but holding no object (null, an array, a string, a bad JSON) is no session', async () => {
    const sessions = storage();
    const signed = (payload: string) => {
      const encoded = Buffer.from(payload).toString('base64url');
      return `__session=${encoded}.${createHmac('sha256', SECRET).update(`__session=${encoded}`).digest('base64url')}`;
    };
    expect((await sessions.getSession(signed('{"user":"ada","role":"admin"}'))).get('role')).toBe('admin');
    for (const payload of ['null', '[1,2]', '"text"', '42', '{not json']) {
      expect((await sessions.getSession(signed(payload))).data).toEqual({});
    }
    const signature = signed('{}').split('.')[1];
    expect((await sessions.getSession(`__session=.${signature}`)).data).toEqual({});
  });

  test("the signature covers the cookie's name: over `<name>=<data>`, and a cookie signed over its data alone (as before the name was signed) is no session", async () => {
    const sessions = storage();
    const encoded = Buffer.from('{"user":"ada"}').toString('base64url');
    const over = (text: string) => createHmac('sha256', SECRET).update(text).digest('base64url');
    expect((await sessions.getSession(`__session=${encoded}.${over(`__session=${encoded}`)}`)).get('user')).toBe('ada');
    for (const text of [encoded, `__session${encoded}`, `__session.${encoded}`, `=${encoded}`]) {
      expect((await sessions.getSession(`__session=${encoded}.${over(text)}`)).data).toEqual({});
    }
    // What commitSession writes is that same signature.
    const session = await sessions.getSession(undefined);
    session.set('user', 'ada');
    const committed = cookiePair(await sessions.commitSession(session));
    const [data = '', signature] = committed.slice('__session='.length).split('.');
    expect(signature).toBe(over(`__session=${data}`));
  });

  test("two storages on one secret never take each other's cookies: a prefs cookie renamed __session is no session, and back", async () => {
    for (const maxAge of [undefined, 600]) {
      const session = createCookieSessionStorage<Visitor>({ cookie: { name: '__session', secrets: [SECRET], maxAge } });
      const prefs = createCookieSessionStorage<Visitor>({ cookie: { name: 'prefs', secrets: [SECRET], maxAge } });
      // Say the app lets a visitor write what they like into their preferences.
      const chosen = await prefs.getSession(undefined);
      chosen.set('user', 'ada');
      chosen.set('role', 'admin');
      const prefsCookie = cookiePair(await prefs.commitSession(chosen));
      expect(prefsCookie).toMatch(/^prefs=/);
      expect((await prefs.getSession(prefsCookie)).get('role')).toBe('admin');
      const renamed = prefsCookie.replace(/^prefs=/, '__session=');
      expect((await session.getSession(renamed)).data).toEqual({});
      const { app } = sessionApp(session);
      await request(app).get('/admin').set('Cookie', renamed).expect(401);
      // And a session cookie, renamed prefs, is no preferences.
      const admin = await signIn(app, 'admin');
      await request(app).get('/admin').set('Cookie', admin).expect(200);
      expect((await prefs.getSession(admin.replace(/^__session=/, 'prefs='))).data).toEqual({});
    }
  });

  test('a key unset is gone from the cookie committed after', async () => {
    const sessions = storage();
    const session = await sessions.getSession(undefined);
    session.set('user', 'ada');
    session.set('role', 'reader');
    session.unset('role');
    const back = await sessions.getSession(cookiePair(await sessions.commitSession(session)));
    expect(back.data).toEqual({ user: 'ada' });
    expect(back.has('role')).toBe(false);
  });

  test('the cookie carries the domain, lifetime, path, SameSite and Secure it was given, and only those', async () => {
    const given = createCookieSessionStorage<Visitor>({
      cookie: { name: 's', secrets: [SECRET], domain: 'example.com', maxAge: 60, path: '/app', sameSite: 'strict', secure: false },
    });
    const header = await given.commitSession(await given.getSession(undefined));
    expect(header).toMatch(/^s=[\w-]+\.\d+\.[\w-]+; Max-Age=60; Domain=example\.com; Path=\/app; HttpOnly; SameSite=Strict$/);
  });

  test('one short secret among good ones stops the app; a refused commit says SessionTooLargeError', async () => {
    expect(() => createCookieSessionStorage({ cookie: { secrets: [SECRET, 'short'] } })).toThrow('at least 32 characters');
    expect(() => createCookieSessionStorage({ cookie: { secrets: ['s'.repeat(32)] } })).not.toThrow();
    const sessions = storage();
    const session = await sessions.getSession(undefined);
    session.set('user', 'x'.repeat(MAX_SESSION_COOKIE_BYTES));
    const refused = await sessions.commitSession(session).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: 'SessionTooLargeError', cookieName: '__session' });
  });
});

describe('a session with maxAge ends on the server too', () => {
  const MINUTE = 60;
  const dated = () => createCookieSessionStorage<Visitor>({ cookie: { name: '__session', secrets: [SECRET], maxAge: MINUTE } });
  const undated = () => createCookieSessionStorage<Visitor>({ cookie: { name: '__session', secrets: [SECRET] } });
  const START = new Date('2026-11-26T12:00:00.000Z');

  afterEach(() => {
    vi.useRealTimers();
  });

  /** Only Date moves: supertest's sockets and timers run as they do. */
  function clockAt(date: Date): void {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(date);
  }

  test('a copy of the cookie opens the page until maxAge has passed since the commit, and never after', async () => {
    clockAt(START);
    const { app } = sessionApp(dated());
    const admin = await signIn(app, 'admin');
    vi.setSystemTime(START.getTime() + (MINUTE - 1) * 1000);
    await request(app).get('/admin').set('Cookie', admin).expect(200);
    vi.setSystemTime(START.getTime() + MINUTE * 1000);
    await request(app).get('/admin').set('Cookie', admin).expect(401);
  });

  test('each commit dates the session anew', async () => {
    clockAt(START);
    const sessions = dated();
    const session = await sessions.getSession(undefined);
    session.set('user', 'ada');
    const first = cookiePair(await sessions.commitSession(session));
    vi.setSystemTime(START.getTime() + 30_000);
    const renewed = cookiePair(await sessions.commitSession(await sessions.getSession(first)));
    vi.setSystemTime(START.getTime() + 75_000);
    expect((await sessions.getSession(first)).has('user')).toBe(false);
    expect((await sessions.getSession(renewed)).get('user')).toBe('ada');
  });

  test('the expiry is signed: a cookie whose expiry was moved is no session', async () => {
    clockAt(START);
    const { app } = sessionApp(dated());
    const admin = await signIn(app, 'admin');
    const [name, value = ''] = admin.split('=');
    const [data, expires, signature] = value.split('.');
    expect(Number(expires)).toBe(START.getTime() / 1000 + MINUTE);
    vi.setSystemTime(START.getTime() + MINUTE * 1000);
    for (const moved of [`${data}.${Number(expires) + 3600}.${signature}`, `${data}.${signature}`, `${data}.${expires}x.${signature}`]) {
      await request(app).get('/admin').set('Cookie', `${name}=${moved}`).expect(401);
    }
  });

  test('with maxAge, a cookie signed without an expiry is no session; without maxAge, a dated cookie still ends when it says', async () => {
    clockAt(START);
    const signIn = async (sessions: SessionStorage<Visitor>) => {
      const session = await sessions.getSession(undefined);
      session.set('user', 'ada');
      return cookiePair(await sessions.commitSession(session));
    };
    const forever = await signIn(undated());
    expect((await undated().getSession(forever)).get('user')).toBe('ada');
    expect((await dated().getSession(forever)).has('user')).toBe(false);
    const withinAMinute = await signIn(dated());
    expect((await undated().getSession(withinAMinute)).get('user')).toBe('ada');
    vi.setSystemTime(START.getTime() + MINUTE * 1000);
    expect((await undated().getSession(withinAMinute)).has('user')).toBe(false);
  });

  test('a maxAge that is not a whole number of seconds above 0 stops the app at once', () => {
    for (const maxAge of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createCookieSessionStorage({ cookie: { secrets: [SECRET], maxAge } })).toThrow(`cookie.maxAge must be a whole number of seconds above 0, not ${maxAge}`);
    }
  });
});
