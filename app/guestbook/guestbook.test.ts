import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createTestApp } from 'react-stream-shell/testing';
import app from '../app.ts';

/** A browser's post carries Sec-Fetch-Site: same-origin, which passes the cross-site check. */
const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin' } as const;

/** The app on a database of its own (SQLite in memory under NODE_ENV=test), migrated as a start migrates it. */
async function guestbook(env: Readonly<Record<string, string>> = {}) {
  const tested = createTestApp(app, { env: { GUESTBOOK_ADMINS: 'Grace', ...env } });
  await tested.start();
  return tested;
}

/** The HTML without the comments React puts between adjacent text nodes. */
function textOf(res: request.Response): string {
  return res.text.replaceAll('<!-- -->', '');
}

function cookieOf(res: request.Response): string {
  const [setCookie] = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  return (setCookie ?? '').split(';')[0] ?? '';
}

describe('the guest book', () => {
  test('starts empty, with its statistic streamed after the list', async () => {
    const { app: server } = await guestbook();
    const res = await request(server).get('/guestbook').expect(200);
    expect(res.text).toContain('<title>Guest book · React Stream Shell</title>');
    expect(res.text).toContain('No entries yet');
    const text = textOf(res);
    expect(text.indexOf('Counting entries')).toBeGreaterThan(0);
    expect(text.indexOf('Counting entries')).toBeLessThan(text.indexOf('0 entries by 0 authors'));
  });

  test('a post without a name or message is shown again with 422 and the errors', async () => {
    const { app: server } = await guestbook();
    const res = await request(server).post('/guestbook').set(SAME_ORIGIN).type('form').send({ name: '', message: 'hello' }).expect(422);
    expect(res.text).toContain('Enter your name.');
    expect(res.text).toContain('hello');
  });

  test('a signed entry gets its page, with head tags from its data, and reaches the list and the API', async () => {
    const { app: server } = await guestbook();
    const posted = await request(server).post('/guestbook').set(SAME_ORIGIN).type('form').send({ name: 'Ada', message: 'Lovely engine.' }).expect(303);
    expect(posted.headers.location).toBe('/guestbook/1');
    const page = await request(server).get('/guestbook/1').expect(200);
    // The section layout's title template puts the page inside the guest book.
    expect(page.text).toContain('<title>Ada&#x27;s entry · Guest book · React Stream Shell</title>');
    expect(page.text).toContain('<meta name="description" content="Lovely engine."/>');
    expect((await request(server).get('/guestbook').expect(200)).text).toContain('Lovely engine.');
    const api = await request(server).get('/api/entries').expect(200);
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect(api.body).toEqual({ entries: [{ id: '1', name: 'Ada', message: 'Lovely engine.', createdAt: expect.any(String), likes: 0 }] });
  });

  test('a like button is named by the count it shows, then what it does (WCAG 2.5.3), not by an aria-label that differs from it', async () => {
    const { app: server } = await guestbook();
    await request(server).post('/guestbook').set(SAME_ORIGIN).type('form').send({ name: 'Ada', message: 'Lovely engine.' }).expect(303);
    const text = textOf(await request(server).get('/guestbook').expect(200));
    const button = /<form[^>]*class="like"[\s\S]*?<button([^>]*)>([\s\S]*?)<\/button>/.exec(text);
    expect(button?.[1]).not.toMatch(/\saria-label=/);
    expect(button?.[2]).toBe('<span aria-hidden="true">♥</span> 0 <span class="sr-only">likes: like Ada&#x27;s entry</span>');
  });

  test("a like through the list's fetcher answers with the new count alone; without JavaScript it shows the entry again", async () => {
    const { app: server } = await guestbook();
    await request(server).post('/guestbook').set(SAME_ORIGIN).type('form').send({ name: 'Ada', message: 'Lovely engine.' }).expect(303);
    // What the like button's fetcher sends: the action's result alone, no page loaded.
    const fetched = await request(server)
      .post('/guestbook/1')
      .set({ ...SAME_ORIGIN, 'X-Navigation': 'data', 'X-Navigation-Scope': 'f1', 'X-Navigation-Fetcher': '1', Accept: 'application/x-ndjson' })
      .type('form')
      .send({ intent: 'like' })
      .expect(200);
    expect(fetched.text).toContain('likes:1');
    expect(fetched.text).not.toContain('Lovely engine.');
    // A plain form post: the entry's page again, thanked, with the count.
    const plain = await request(server).post('/guestbook/1').set(SAME_ORIGIN).type('form').send({ intent: 'like' }).expect(200);
    expect(textOf(plain)).toContain('Thank you for the like.');
    expect(textOf(plain)).toContain('♥</span> 2 <span');
    expect(textOf(await request(server).get('/guestbook').expect(200))).toContain('♥</span> 2 <span');
    await request(server).post('/guestbook/9').set(SAME_ORIGIN).type('form').send({ intent: 'like' }).expect(404);
  });

  test("an entry that does not exist answers 404 with the section's boundary inside the layouts, and no error line", async () => {
    const { app: server, logs } = await guestbook();
    const res = await request(server).get('/guestbook/42').expect(404);
    expect(res.text).toContain('No such entry');
    // The root layout's header and the section's navigation stay around it.
    expect(res.text).toContain('aria-label="Site"');
    expect(res.text).toContain('aria-label="Guest book"');
    expect(res.text).toContain('<meta name="robots" content="noindex"/>');
    expect(logs.filter((line) => line.level >= 50)).toEqual([]);
  });

  test('signing in shows the name in the root layout, on the next page', async () => {
    const { app: server } = await guestbook();
    expect((await request(server).get('/').expect(200)).text).toContain('>Sign in</a>');
    const signedIn = await request(server).post('/sign-in').set(SAME_ORIGIN).type('form').send({ name: 'Ada' }).expect(303);
    const home = await request(server).get('/').set('Cookie', cookieOf(signedIn)).expect(200);
    expect(home.text.replaceAll('<!-- -->', '')).toContain('Signed in as Ada');
  });

  test('the admin page: 401 without a session, 403 for a reader, the figures for an admin', async () => {
    const { app: server } = await guestbook();
    await request(server).get('/admin').expect(401);
    const reader = await request(server).post('/sign-in').set(SAME_ORIGIN).type('form').send({ name: 'Ada' }).expect(303);
    // A reader is sent where a reader may go, not to a 403.
    expect(reader.headers.location).toBe('/guestbook');
    await request(server).get('/admin').set('Cookie', cookieOf(reader)).expect(403);
    const admin = await request(server).post('/sign-in').set(SAME_ORIGIN).type('form').send({ name: 'grace' }).expect(303);
    expect(admin.headers.location).toBe('/admin');
    const res = await request(server).get('/admin').set('Cookie', cookieOf(admin)).expect(200);
    expect(textOf(res)).toContain('Signed in as grace.');
  });

  test("every page's header signs out, a reader too: the cookie is cleared and the browser sent home", async () => {
    const { app: server } = await guestbook();
    const reader = await request(server).post('/sign-in').set(SAME_ORIGIN).type('form').send({ name: 'Ada' }).expect(303);
    const page = await request(server).get('/guestbook').set('Cookie', cookieOf(reader)).expect(200);
    // A plain form, so it works before hydration and without JavaScript, to the sign-out resource route.
    expect(page.text).toMatch(
      /<form class="sign-out" action="\/sign-out" method="post"><input type="hidden" name="_csrf" value="[^"]+"\/><button type="submit">Sign out<\/button><\/form>/,
    );
    // The header marks the page it is on.
    expect(page.text).toContain('<a aria-current="page" class="active" href="/guestbook">Guest book</a>');
    expect(page.text).toContain('<a href="/admin">Admin</a>');
    const out = await request(server).post('/sign-out').set(SAME_ORIGIN).set('Cookie', cookieOf(reader)).type('form').send({}).expect(303);
    expect(out.headers.location).toBe('/');
    expect(out.headers['set-cookie']?.[0]).toMatch(/^__session=; Max-Age=0/);
    expect((await request(server).get('/').expect(200)).text).not.toContain('Sign out');
  });

  test.each([
    ['signing in', '/sign-in', {}],
    ['signing the book', '/guestbook', { message: 'Hello' }],
  ])('%s under a name over 60 characters: 422 with the field error, nothing stored, no error line', async (_case, path, fields) => {
    const { app: server, logs } = await guestbook();
    const name = 'A'.repeat(4_000);
    const res = await request(server)
      .post(path)
      .set(SAME_ORIGIN)
      .type('form')
      .send({ name, ...fields })
      .expect(422);
    expect(textOf(res)).toContain('Keep it under 60 characters.');
    expect(res.headers['set-cookie'] ?? []).not.toContainEqual(expect.stringMatching(/^__session=/));
    expect(textOf(await request(server).get('/guestbook').expect(200))).not.toContain(name);
    expect(logs.filter((line) => line.level >= 50)).toEqual([]);
    // Sixty characters are a name.
    await request(server)
      .post(path)
      .set(SAME_ORIGIN)
      .type('form')
      .send({ name: 'A'.repeat(60), ...fields })
      .expect(303);
  });
});

describe('its settings', () => {
  test('production without SESSION_SECRET stops the start, naming it', () => {
    expect(() => createTestApp(app, { env: { NODE_ENV: 'production' } })).toThrow('Invalid SESSION_SECRET=""');
  });
});
