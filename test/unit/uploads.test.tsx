import request from 'supertest';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { defineApp, type AppDefinition } from '../../server/app-definition.ts';
import { createTestApp, type TestApp } from '../../server/testing/test-app.ts';
import { defineRoute, type ActionContext } from '../../shared/api/route-definition.ts';
import { delay, errorLines } from '../support/build-app.ts';
import { afterServerCloses, expectOneClosingStatusPage, watchConsoleError } from '../support/closing-answers.ts';
import { closeTestServers, listenForTest } from '../support/http-client.ts';
import { openRawConnection, sendEndlessChunks, splitResponses } from '../support/raw-http.ts';

/**
 * Uploads (docs/building-an-app.md#uploads): an app that declares `uploads` has its actions take
 * `multipart/form-data`, each file a `File` in `body`, within caps on each file's bytes, the
 * number of files and of fields, and the whole body, each counted as the bytes arrive: past one,
 * the 413 page and nothing more read. A body cut short or not multipart as it says: 400. An app
 * without `uploads` refuses multipart with 415, as before.
 */

afterEach(async () => {
  vi.restoreAllMocks();
  await closeTestServers();
});

type Bodies = Array<Readonly<Record<string, unknown>>>;

function uploadApp(uploads: AppDefinition['uploads']): TestApp & { readonly bodies: Bodies } {
  const bodies: Bodies = [];
  const record = ({ body }: ActionContext) => {
    bodies.push(body);
    return { saved: true };
  };
  const definition = defineApp({
    routes: [
      defineRoute({ path: '/profile', component: () => <h1>Profile</h1>, action: record }),
      defineRoute({
        path: '/api/avatar',
        load: () => new Response('post a file'),
        action: async ({ body }: ActionContext) => {
          bodies.push(body);
          const { avatar } = body;
          return avatar instanceof File ? Response.json({ name: avatar.name, size: avatar.size, text: await avatar.text() }) : new Response('no file', { status: 422 });
        },
      }),
    ],
    uploads,
  });
  return { ...createTestApp(definition), bodies };
}

const PAGE_TITLE = (status: number) => new RegExp(`<title>${status}: [^<]+</title>`);

/** A multipart body written by hand, as a browser writes one. */
function multipart(boundary: string, parts: ReadonlyArray<{ name: string; value: string; filename?: string; type?: string }>, closed = true): string {
  const written = parts.map(({ name, value, filename, type = 'text/plain' }) => {
    const disposition = `Content-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"\r\nContent-Type: ${type}`}`;
    return `--${boundary}\r\n${disposition}\r\n\r\n${value}\r\n`;
  });
  return `${written.join('')}${closed ? `--${boundary}--\r\n` : ''}`;
}

function postHead(type: string, framing: string): string {
  return `POST /profile HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: same-origin\r\nContent-Type: ${type}\r\n${framing}\r\n`;
}

describe('an app that takes uploads', () => {
  test('a field and a file reach the action: the field as text, the file as a File with its name, type and bytes', async () => {
    const { app, bodies, logs } = uploadApp({ maxFileBytes: 1024 });
    const res = await request(app)
      .post('/profile')
      .set('Sec-Fetch-Site', 'same-origin')
      .field('name', 'Ada')
      .attach('avatar', Buffer.from('portrait bytes'), { filename: 'ada ✓.png', contentType: 'image/png' });
    expect(res.status).toBe(200);
    expect(bodies).toHaveLength(1);
    const [body] = bodies;
    expect(body?.name).toBe('Ada');
    const avatar = body?.avatar;
    expect(avatar).toBeInstanceOf(File);
    if (!(avatar instanceof File)) return;
    expect([avatar.name, avatar.type, avatar.size, await avatar.text()]).toEqual(['ada ✓.png', 'image/png', 14, 'portrait bytes']);
    expect(errorLines(logs)).toEqual([]);
  });

  test("a resource route's action gets the file too, and answers with what it read", async () => {
    const { app } = uploadApp({ maxFileBytes: 1024 });
    const res = await request(app).post('/api/avatar').set('Sec-Fetch-Site', 'same-origin').attach('avatar', Buffer.from('abc'), 'a.txt');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'a.txt', size: 3, text: 'abc' });
  });

  test('an empty file input, as a browser sends it, is a File of size 0 with an empty name', async () => {
    const { app, bodies } = uploadApp({});
    const res = await request(app)
      .post('/profile')
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Content-Type', 'multipart/form-data; boundary=b')
      .send(multipart('b', [{ name: 'avatar', value: '', filename: '', type: 'application/octet-stream' }]));
    expect(res.status).toBe(200);
    const avatar = bodies[0]?.avatar;
    expect(avatar instanceof File ? [avatar.name, avatar.size] : avatar).toEqual(['', 0]);
  });

  test('a part without a name is left out, field or file', async () => {
    const { app, bodies } = uploadApp({});
    const nameless = '--b\r\nContent-Disposition: form-data\r\n\r\nlost\r\n--b\r\nContent-Disposition: form-data; filename="a.txt"\r\n\r\nlost too\r\n';
    const res = await request(app)
      .post('/profile')
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Content-Type', 'multipart/form-data; boundary=b')
      .send(`${nameless}${multipart('b', [{ name: 'name', value: 'Ada' }])}`);
    expect(res.status).toBe(200);
    expect(bodies).toEqual([{ name: 'Ada' }]);
  });

  test('repeated names become arrays, as repeated urlencoded fields do', async () => {
    const { app, bodies } = uploadApp({ maxFiles: 2 });
    const res = await request(app)
      .post('/profile')
      .set('Sec-Fetch-Site', 'same-origin')
      .field('tag', 'a')
      .field('tag', 'b')
      .attach('photos', Buffer.from('one'), 'one.txt')
      .attach('photos', Buffer.from('two'), 'two.txt');
    expect(res.status).toBe(200);
    expect(bodies[0]?.tag).toEqual(['a', 'b']);
    const photos = bodies[0]?.photos;
    expect(Array.isArray(photos) ? await Promise.all(photos.map((photo: unknown) => (photo instanceof File ? photo.text() : 'not a file'))) : photos).toEqual(['one', 'two']);
  });

  test('without Sec-Fetch-Site or Origin, the form token in the multipart body passes the cross-site check; a wrong one gets 403', async () => {
    const { app, bodies } = uploadApp({});
    const page = await request(app).get('/profile').expect(200);
    const cookie = /csrf=([^;]+)/.exec(String(page.headers['set-cookie']))?.[1] ?? '';
    expect(cookie).not.toBe('');
    const passed = await request(app).post('/profile').set('Cookie', `csrf=${cookie}`).field('_csrf', cookie).field('name', 'Ada').attach('avatar', Buffer.from('x'), 'x.txt');
    expect(passed.status).toBe(200);
    // The token is the check's, not the action's.
    expect(Object.keys(bodies[0] ?? {}).sort()).toEqual(['avatar', 'name']);
    const refused = await request(app).post('/profile').set('Cookie', `csrf=${cookie}`).field('_csrf', `${cookie}x`).attach('avatar', Buffer.from('x'), 'x.txt');
    expect(refused.status).toBe(403);
    expect(bodies).toHaveLength(1);
  });

  test('a cross-site post gets 403 from its headers alone, before any of its body is read', async () => {
    const built = uploadApp({ maxFileBytes: 8 * 1024 * 1024 });
    const { port } = await listenForTest(built.app);
    const connection = await openRawConnection(port);
    // Eight megabytes declared, none sent: an answer can only come from the headers.
    const head = postHead('multipart/form-data; boundary=b', `Content-Length: ${8 * 1024 * 1024}\r\n`).replace('Sec-Fetch-Site: same-origin', 'Sec-Fetch-Site: cross-site');
    connection.write(head);
    expect(await connection.closedWithin(2_000)).toBeLessThan(2_000);
    const [response] = splitResponses(connection.received());
    expect(response?.status).toBe(403);
    expect(response?.body).toMatch(PAGE_TITLE(403));
    expect(built.logs.filter((line) => line.msg === 'csrf refused').map((line) => line.reason)).toEqual(['cross-site']);
    expect(built.bodies).toEqual([]);
  });

  test('a file of exactly maxFileBytes passes; one byte more gets the 413 page, and the action never runs', async () => {
    const { app, bodies, logs } = uploadApp({ maxFileBytes: 100 });
    const post = (bytes: number) => request(app).post('/profile').set('Sec-Fetch-Site', 'same-origin').attach('avatar', Buffer.alloc(bytes, 'a'), 'a.txt');
    expect((await post(100)).status).toBe(200);
    const over = await post(101);
    expect(over.status).toBe(413);
    expect(over.text).toMatch(PAGE_TITLE(413));
    expect(bodies).toHaveLength(1);
    expect(errorLines(logs)).toEqual([]);
  });

  test("a file over the edge's 1 MiB declared-body limit passes when the app's caps allow it", async () => {
    const { app, bodies } = uploadApp({ maxFileBytes: 4 * 1024 * 1024 });
    const res = await request(app)
      .post('/profile')
      .set('Sec-Fetch-Site', 'same-origin')
      .attach('avatar', Buffer.alloc(2 * 1024 * 1024, 'a'), 'big.bin');
    expect(res.status).toBe(200);
    const avatar = bodies[0]?.avatar;
    expect(avatar instanceof File ? avatar.size : avatar).toBe(2 * 1024 * 1024);
  });

  test('one file more than maxFiles gets the 413 page', async () => {
    const { app, bodies } = uploadApp({ maxFiles: 2 });
    const post = (files: number) => {
      let sent = request(app).post('/profile').set('Sec-Fetch-Site', 'same-origin');
      for (let at = 0; at < files; at++) sent = sent.attach('photos', Buffer.from('x'), `${at}.txt`);
      return sent;
    };
    expect((await post(2)).status).toBe(200);
    const over = await post(3);
    expect(over.status).toBe(413);
    expect(over.text).toMatch(PAGE_TITLE(413));
    expect(bodies).toHaveLength(1);
  });

  test('one field more than maxFields gets the 413 page', async () => {
    const { app, bodies } = uploadApp({ maxFields: 3 });
    const post = (fields: number) => {
      let sent = request(app).post('/profile').set('Sec-Fetch-Site', 'same-origin');
      for (let at = 0; at < fields; at++) sent = sent.field(`f${at}`, 'v');
      return sent;
    };
    expect((await post(3)).status).toBe(200);
    const over = await post(4);
    expect(over.status).toBe(413);
    expect(over.text).toMatch(PAGE_TITLE(413));
    expect(bodies).toHaveLength(1);
  });

  test('a declared length over maxBodyBytes gets 413 before the body is read', async () => {
    const built = uploadApp({ maxBodyBytes: 1000 });
    const { port } = await listenForTest(built.app);
    const connection = await openRawConnection(port);
    connection.write(postHead('multipart/form-data; boundary=b', 'Content-Length: 1001\r\n'));
    expect(await connection.closedWithin(2_000)).toBeLessThan(2_000);
    const [response] = splitResponses(connection.received());
    expect(response?.status).toBe(413);
    expect(response?.body).toMatch(PAGE_TITLE(413));
    expect(built.bodies).toEqual([]);
  });

  test('an endless chunked file under its own cap gets 413 at maxBodyBytes, counted as it arrives, not read on, and the connection closes', async () => {
    const built = uploadApp({ maxFileBytes: 64 * 1024 * 1024, maxBodyBytes: 256 * 1024 });
    const listening = await listenForTest(built.app);
    const sockets: Array<{ bytesRead: number }> = [];
    listening.server.on('connection', (socket) => sockets.push(socket));
    const connection = await openRawConnection(listening.port);
    connection.write(postHead('multipart/form-data; boundary=b', 'Transfer-Encoding: chunked\r\n'));
    const start = '--b\r\nContent-Disposition: form-data; name="avatar"; filename="big.bin"\r\n\r\n';
    connection.write(`${start.length.toString(16)}\r\n${start}\r\n`);
    await sendEndlessChunks(connection, 3_000);
    const closedAfterMs = await connection.closedWithin(3_000);
    connection.destroy();
    const responses = splitResponses(connection.received());
    expect(responses.map((response) => response.status)).toEqual([413]);
    expect(responses[0]?.head).toMatch(/\r\nConnection: close/i);
    expect(responses[0]?.body).toMatch(PAGE_TITLE(413));
    expect(closedAfterMs).toBeLessThan(3_000);
    expect(sockets.reduce((sum, socket) => sum + socket.bytesRead, 0)).toBeLessThan(4 * 1024 * 1024);
    expect(built.bodies).toEqual([]);
    expect(errorLines(built.logs)).toEqual([]);
  });

  test('a body the client stops sending in the middle of a part gets the 400 page at once, and the connection closes', async () => {
    const built = uploadApp({});
    const { port } = await listenForTest(built.app);
    const printed = watchConsoleError();
    const connection = await openRawConnection(port);
    const part = '--b\r\nContent-Disposition: form-data; name="avatar"; filename="a.txt"\r\n\r\nhalf of the fi';
    connection.write(`${postHead('multipart/form-data; boundary=b', 'Content-Length: 500\r\n')}${part}`);
    await delay(100);
    connection.endWriting();
    expectOneClosingStatusPage(built, await afterServerCloses(connection, built), printed, 400, '400: Bad Request.');
    expect(built.bodies).toEqual([]);
  });

  test.each([
    [
      'whole as HTTP framing goes, but without the closing boundary',
      'multipart/form-data; boundary=b',
      multipart('b', [{ name: 'avatar', value: 'abc', filename: 'a.txt' }], false),
    ],
    ['with a part header that never ends', 'multipart/form-data; boundary=b', `--b\r\nContent-Disposition: form-data; name="a"${'x'.repeat(20_000)}`],
    ['without a boundary in its Content-Type', 'multipart/form-data', multipart('b', [{ name: 'name', value: 'Ada' }])],
  ])('a body %s gets the 400 page, never a hang or a 500', async (_case, type, body) => {
    const { app, bodies, logs } = uploadApp({});
    const res = await request(app).post('/profile').set('Sec-Fetch-Site', 'same-origin').set('Content-Type', type).send(body).timeout(3_000);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(PAGE_TITLE(400));
    expect(bodies).toEqual([]);
    expect(errorLines(logs)).toEqual([]);
  });

  test('a compressed multipart body gets 415', async () => {
    const { app, bodies } = uploadApp({});
    const res = await request(app)
      .post('/profile')
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Content-Type', 'multipart/form-data; boundary=b')
      .set('Content-Encoding', 'gzip')
      .send(multipart('b', [{ name: 'name', value: 'Ada' }]));
    expect(res.status).toBe(415);
    expect(bodies).toEqual([]);
  });

  test('a cap that is not a whole number of 0 or more stops the app being built', () => {
    expect(() => uploadApp({ maxFiles: -1 })).toThrow(/uploads\.maxFiles/);
    expect(() => uploadApp({ maxFileBytes: 1.5 })).toThrow(/uploads\.maxFileBytes/);
    // 0 is a cap: no file at all.
    expect(() => uploadApp({ maxFiles: 0 })).not.toThrow();
  });

  test('Content-Encoding: identity, in any case, is no encoding: the body is read', async () => {
    const { app, bodies } = uploadApp({});
    for (const encoding of ['identity', 'IDENTITY']) {
      const res = await request(app)
        .post('/profile')
        .set('Sec-Fetch-Site', 'same-origin')
        .set('Content-Type', 'multipart/form-data; boundary=b')
        .set('Content-Encoding', encoding)
        .send(multipart('b', [{ name: 'name', value: encoding }]));
      expect(res.status, encoding).toBe(200);
    }
    expect(bodies).toEqual([{ name: 'identity' }, { name: 'IDENTITY' }]);
  });

  test('a body of exactly maxBodyBytes passes, declared and counted; one byte more gets 413', async () => {
    const body = multipart('b', [{ name: 'name', value: 'Ada' }]);
    const { app, bodies } = uploadApp({ maxBodyBytes: Buffer.byteLength(body) });
    const post = (sent: string) => request(app).post('/profile').set('Sec-Fetch-Site', 'same-origin').set('Content-Type', 'multipart/form-data; boundary=b').send(sent);
    expect((await post(body)).status).toBe(200);
    expect((await post(multipart('b', [{ name: 'name', value: 'Adam' }]))).status).toBe(413);
    expect(bodies).toEqual([{ name: 'Ada' }]);
  });
});

describe('an app without uploads', () => {
  test('refuses multipart with the 415 page, as before, and the action never runs', async () => {
    const { app, bodies } = uploadApp(undefined);
    const res = await request(app).post('/profile').set('Sec-Fetch-Site', 'same-origin').field('name', 'Ada').attach('avatar', Buffer.from('x'), 'x.txt');
    expect(res.status).toBe(415);
    expect(res.text).toMatch(PAGE_TITLE(415));
    expect(bodies).toEqual([]);
  });
});
