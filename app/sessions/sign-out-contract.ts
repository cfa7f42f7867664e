import request from 'supertest';
import { afterEach, expect, test } from 'vitest';
import { createTestApp, type TestApp } from 'react-stream-shell/testing';
import app from '../app.ts';

/** A browser's post carries Sec-Fetch-Site: same-origin, which passes the cross-site check. */
const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin' } as const;
/** One secret for every instance, as production requires. */
const SECRET = 's'.repeat(40);

function cookieOf(res: request.Response): string {
  const [setCookie] = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  return (setCookie ?? '').split(';')[0] ?? '';
}

function signedInAs(res: request.Response): string | undefined {
  return /Signed in as ([^<.]+)/.exec(res.text.replaceAll('<!-- -->', ''))?.[1];
}

/**
 * The app's sessions with SESSION_STORE=database, through its pages, on any database:
 * `database` gives the settings of a fresh one that several instances can share (a SQLite file,
 * a PostgreSQL URL).
 */
export function signOutContract(database: () => Promise<Readonly<Record<string, string>>>): void {
  const started: TestApp[] = [];
  async function instance(env: Readonly<Record<string, string>>): Promise<TestApp> {
    const tested = createTestApp(app, { env: { SESSION_SECRET: SECRET, GUESTBOOK_ADMINS: 'Grace', ...env } });
    started.push(tested);
    await tested.start();
    return tested;
  }
  afterEach(async () => {
    for (const tested of started.splice(0)) await tested.close();
  });

  test('with SESSION_STORE=database the cookie holds only an id, and a sign-out on one instance ends the session on every other', async () => {
    const env = { ...(await database()), SESSION_STORE: 'database' };
    const [one, two] = [await instance(env), await instance(env)];
    const signedIn = await request(one.app).post('/sign-in').set(SAME_ORIGIN).type('form').send({ name: 'Grace' }).expect(303);
    const cookie = cookieOf(signedIn);
    // The name is in the table, not in the cookie: id.expiry.signature.
    expect(cookie).toMatch(/^__session=[\w-]+\.\d+\.[\w-]+$/);
    expect(Buffer.from(cookie.slice('__session='.length).split('.')[0] ?? '', 'base64url').toString()).not.toContain('Grace');
    // Either instance reads it.
    expect(signedInAs(await request(two.app).get('/').set('Cookie', cookie).expect(200))).toBe('Grace');
    await request(two.app).get('/admin').set('Cookie', cookie).expect(200);
    // Signed out through the second; the first (and a copy of the cookie kept anywhere) no longer knows it.
    const out = await request(two.app).post('/sign-out').set(SAME_ORIGIN).set('Cookie', cookie).type('form').send({}).expect(303);
    expect(out.headers['set-cookie']?.[0]).toMatch(/^__session=; Max-Age=0/);
    const copied = await request(one.app).get('/').set('Cookie', cookie).expect(200);
    expect(signedInAs(copied)).toBeUndefined();
    expect(copied.text).toContain('>Sign in</a>');
    await request(one.app).get('/admin').set('Cookie', cookie).expect(401);
    // What a signed-out visitor gets, byte for byte but the per-request tokens.
    const stranger = await request(one.app).get('/').expect(200);
    const tokens = (text: string) => text.replace(/value="[^"]+"/g, 'value=""').replace(/nonce="[^"]+"/g, 'nonce=""');
    expect(tokens(copied.text)).toBe(tokens(stranger.text));
    expect(one.logs.filter((line) => line.level >= 50)).toEqual([]);
  });

  test('with the default cookie store a copy of the cookie outlives the sign-out: what the setting is for', async () => {
    const env = await database();
    const tested = await instance(env);
    const cookie = cookieOf(await request(tested.app).post('/sign-in').set(SAME_ORIGIN).type('form').send({ name: 'Ada' }).expect(303));
    await request(tested.app).post('/sign-out').set(SAME_ORIGIN).set('Cookie', cookie).type('form').send({}).expect(303);
    expect(signedInAs(await request(tested.app).get('/').set('Cookie', cookie).expect(200))).toBe('Ada');
  });
}
