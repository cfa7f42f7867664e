import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { afterAll, describe, expect, test } from 'vitest';
import { createTestApp } from 'react-stream-shell/testing';
import app from '../app.ts';
import { createGuestbookStore, GuestbookFileError } from './store.server.ts';

/** A browser's post carries Sec-Fetch-Site: same-origin, which passes the cross-site check. */
const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin' } as const;

function guestbook(env: Readonly<Record<string, string>> = {}) {
  return createTestApp(app, { env: { GUESTBOOK_ADMINS: 'Grace', ...env } });
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
    const { app: server } = guestbook();
    const res = await request(server).get('/guestbook').expect(200);
    expect(res.text).toContain('<title>Guest book · React Stream Shell</title>');
    expect(res.text).toContain('No entries yet');
    const text = textOf(res);
    expect(text.indexOf('Counting entries')).toBeGreaterThan(0);
    expect(text.indexOf('Counting entries')).toBeLessThan(text.indexOf('0 entries by 0 authors'));
  });

  test('a post without a name or message is shown again with 422 and the errors', async () => {
    const { app: server } = guestbook();
    const res = await request(server).post('/guestbook').set(SAME_ORIGIN).type('form').send({ name: '', message: 'hello' }).expect(422);
    expect(res.text).toContain('Enter your name.');
    expect(res.text).toContain('hello');
  });

  test('a signed entry gets its page, with head tags from its data, and reaches the list and the API', async () => {
    const { app: server } = guestbook();
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
    const { app: server } = guestbook();
    await request(server).post('/guestbook').set(SAME_ORIGIN).type('form').send({ name: 'Ada', message: 'Lovely engine.' }).expect(303);
    const text = textOf(await request(server).get('/guestbook').expect(200));
    const button = /<form[^>]*class="like"[\s\S]*?<button([^>]*)>([\s\S]*?)<\/button>/.exec(text);
    expect(button?.[1]).not.toMatch(/\saria-label=/);
    expect(button?.[2]).toBe('<span aria-hidden="true">♥</span> 0 <span class="sr-only">likes: like Ada&#x27;s entry</span>');
  });

  test("a like through the list's fetcher answers with the new count alone; without JavaScript it shows the entry again", async () => {
    const { app: server } = guestbook();
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
    const { app: server, logs } = guestbook();
    const res = await request(server).get('/guestbook/42').expect(404);
    expect(res.text).toContain('No such entry');
    // The root layout's header and the section's navigation stay around it.
    expect(res.text).toContain('aria-label="Site"');
    expect(res.text).toContain('aria-label="Guest book"');
    expect(res.text).toContain('<meta name="robots" content="noindex"/>');
    expect(logs.filter((line) => line.level >= 50)).toEqual([]);
  });

  test('signing in shows the name in the root layout, on the next page', async () => {
    const { app: server } = guestbook();
    expect((await request(server).get('/').expect(200)).text).toContain('>Sign in</a>');
    const signedIn = await request(server).post('/sign-in').set(SAME_ORIGIN).type('form').send({ name: 'Ada' }).expect(303);
    const home = await request(server).get('/').set('Cookie', cookieOf(signedIn)).expect(200);
    expect(home.text.replaceAll('<!-- -->', '')).toContain('Signed in as Ada');
  });

  test('the admin page: 401 without a session, 403 for a reader, the figures for an admin', async () => {
    const { app: server } = guestbook();
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
    const { app: server } = guestbook();
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
    const { app: server, logs } = guestbook();
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

describe('the store', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  test('keeps its entries in GUESTBOOK_FILE across restarts, two posts at once included', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guestbook-'));
    dirs.push(dir);
    const file = join(dir, 'entries.json');
    const first = createGuestbookStore(file);
    await Promise.all([first.add({ name: 'Ada', message: 'one' }), first.add({ name: 'Grace', message: 'two' })]);
    expect(JSON.parse(await readFile(file, 'utf8'))).toHaveLength(2);
    const again = createGuestbookStore(file);
    expect((await again.list()).map((entry) => entry.message).sort()).toEqual(['one', 'two']);
    expect((await again.find('1'))?.createdAt).toBeInstanceOf(Date);
    // Likes, two at once, are kept too.
    await Promise.all([again.like('1'), again.like('1')]);
    expect((await createGuestbookStore(file).find('1'))?.likes).toBe(2);
  });

  test('a post whose save fails is answered with an error and leaves the entries as the file holds them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guestbook-'));
    dirs.push(dir);
    const file = join(dir, 'book', 'entries.json');
    const store = createGuestbookStore(file);
    await store.add({ name: 'Ada', message: 'saved' });
    // The folder becomes a file: the next save cannot write there.
    await rm(join(dir, 'book'), { recursive: true });
    await writeFile(join(dir, 'book'), '');
    await expect(store.add({ name: 'Grace', message: 'lost' })).rejects.toThrow();
    await expect(store.like('1')).rejects.toThrow();
    expect((await store.list()).map(({ message, likes }) => ({ message, likes }))).toEqual([{ message: 'saved', likes: 0 }]);
    // Writable again, the next post is saved after the first, as if the failed ones never were.
    await rm(join(dir, 'book'));
    expect((await store.add({ name: 'Grace', message: 'kept' })).id).toBe('2');
    expect(JSON.parse(await readFile(file, 'utf8')).map(({ message }: { message: string }) => message)).toEqual(['saved', 'kept']);
  });

  test('a save still on its way holds up no read: the pages show the entries as the file holds them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guestbook-'));
    dirs.push(dir);
    const file = join(dir, 'entries.json');
    const store = createGuestbookStore(file);
    await store.add({ name: 'Ada', message: 'saved' });
    // A named pipe where the save writes first: the write waits until someone reads it.
    await promisify(execFile)('mkfifo', [`${file}.tmp`]);
    const stuck = store.add({ name: 'Grace', message: 'on its way' });
    const read = await Promise.race([store.list(), new Promise<'held up'>((resolve) => setTimeout(() => resolve('held up'), 500))]);
    expect(read === 'held up' ? read : read.map(({ message }) => message)).toEqual(['saved']);
    // Read the pipe: the save goes through, and the entry shows from then on.
    const drained = readFile(`${file}.tmp`, 'utf8');
    await stuck;
    expect(JSON.parse(await drained).map(({ message }: { message: string }) => message)).toEqual(['saved', 'on its way']);
    expect((await store.list()).map(({ message }) => message)).toEqual(['on its way', 'saved']);
  });

  test('starts empty from a file not written yet, and refuses, as it starts, a file that holds anything but entries', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'guestbook-'));
    dirs.push(dir);
    expect(await createGuestbookStore(join(dir, 'new', 'entries.json')).list()).toEqual([]);
    const file = join(dir, 'entries.json');
    const entry = { id: '1', name: 'Ada', message: 'hi', createdAt: '2026-01-01T00:00:00.000Z' };
    for (const [text, reason] of [
      ['', 'is not JSON'],
      ['null', 'is not a JSON list of entries'],
      [JSON.stringify([{ ...entry, id: 1 }]), 'has an entry (number 1) without'],
      [JSON.stringify([entry, { ...entry, likes: -1 }]), 'has an entry (number 2) without'],
      [JSON.stringify([entry, null]), 'has an entry (number 2) without'],
    ] as const) {
      await writeFile(file, text);
      expect(() => createGuestbookStore(file), text).toThrow(GuestbookFileError);
      expect(() => createGuestbookStore(file), text).toThrow(reason);
    }
    // Entries written before likes existed are read with none.
    await writeFile(file, JSON.stringify([entry]));
    expect(await createGuestbookStore(file).find('1')).toEqual({ ...entry, createdAt: new Date(entry.createdAt), likes: 0 });
  });
});

describe('its settings', () => {
  test('production without SESSION_SECRET stops the start, naming it', () => {
    expect(() => createTestApp(app, { env: { NODE_ENV: 'production' } })).toThrow('Invalid SESSION_SECRET=""');
  });
});
