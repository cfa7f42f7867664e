import type { Socket } from 'node:net';
import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { ACTION_BODY_LIMIT_BYTES, ACTION_FIELD_LIMIT } from '../../server/actions/form-body.ts';
import { CSRF_COOKIE, issueToken } from '../../server/security/csrf.ts';
import { invalid, redirect, type InvalidData } from '../../shared/api/action-helpers.ts';
import { Form } from '../../shared/api/form.tsx';
import { NAVIGATION_HEADER, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { FORM_TOKEN_FIELD } from '../../shared/protocol/form-token-field.ts';
import { defineRoute, route, type ActionContext, type PageProps, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { forbidden } from '../../shared/api/status-helpers.ts';
import { buildApp, errorLines, LEVEL, type LogLine, type TestApp } from '../support/build-app.ts';
import { closeTestServers, listenForTest } from '../support/http-client.ts';
import { openRawConnection, sendEndlessChunks, rawRequest, splitResponses } from '../support/raw-http.ts';

const SECRET = 'forms-test-secret-0123456789-abcdefghij';
const OTHER_SECRET = 'another-secret-0123456789-abcdefghijklmn';

/** What each action run saw, so a test can tell whether the action ran at all. */
interface ActionRun {
  readonly body: Readonly<Record<string, unknown>>;
  readonly frozen: boolean;
  readonly method: string;
  readonly url: string;
  readonly params: Readonly<Record<string, string>>;
  readonly context: unknown;
}

type SignupErrors = { readonly name?: string };
type SignupValues = { readonly name: string; readonly email: string };

function SignupPage({ data, actionData }: PageProps<{ readonly loads: number; readonly method: string }>) {
  const failed = actionData as InvalidData<SignupErrors, SignupValues> | undefined;
  const saved = actionData as { readonly saved?: string } | undefined;
  return (
    <main>
      <h1>Sign up</h1>
      <p id="load">{`${data.method} load`}</p>
      {saved?.saved === undefined ? null : <p id="saved">{`SAVED:${saved.saved}`}</p>}
      <Form method="post">
        <label>
          Name <input name="name" defaultValue={failed?.values?.name ?? ''} />
        </label>
        {failed?.errors?.name === undefined ? null : <p id="error-name">{failed.errors.name}</p>}
        <label>
          Email <input name="email" defaultValue={failed?.values?.email ?? ''} />
        </label>
        <button type="submit">Send</button>
      </Form>
    </main>
  );
}

function createRoutes(runs: ActionRun[]): RouteDefinition[] {
  return [
    defineRoute({ path: '/plain', component: () => <h1>Plain</h1> }),
    defineRoute({
      path: '/signup/:list',
      component: SignupPage,
      load: ({ request: req }) => ({ loads: 1, method: req.method }),
      action: ({ body, request: req, params, context }: ActionContext) => {
        runs.push({ body, frozen: Object.isFrozen(body), method: req.method, url: req.url, params, context });
        const name = typeof body.name === 'string' ? body.name : '';
        const email = typeof body.email === 'string' ? body.email : '';
        switch (body.intent) {
          case 'redirect':
            return redirect('/signup/done?from=action');
          case 'redirect-absolute':
            return redirect(typeof body.to === 'string' ? body.to : '');
          case 'forbidden':
            return forbidden();
          case 'throw':
            throw new Error('action exploded: SECRET-ACTION-DETAIL');
          default:
            if (name === '') return invalid<SignupErrors, SignupValues>({ name: 'NAME-REQUIRED' }, { name, email: `${email}<echo>` });
            return { saved: name };
        }
      },
    }),
  ];
}

function formApp(options: Parameters<typeof buildApp>[1] = {}): TestApp & { readonly runs: ActionRun[] } {
  const runs: ActionRun[] = [];
  return { ...buildApp(createRoutes(runs), { forms: { secret: SECRET }, ...options }), runs };
}

function csrfLines(logs: readonly LogLine[]): LogLine[] {
  return logs.filter((line) => line.msg === 'csrf refused');
}

function warnLines(logs: readonly LogLine[]): LogLine[] {
  return logs.filter((line) => line.level === LEVEL.warn);
}

/** The `csrf` cookie a response sets, or undefined. */
function setCookie(res: request.Response): string | undefined {
  const header: unknown = res.headers['set-cookie'];
  const cookies = Array.isArray(header) ? header.map(String) : [];
  return cookies.find((cookie) => cookie.startsWith(`${CSRF_COOKIE}=`));
}

function cookieValue(cookie: string | undefined): string {
  const value = /^csrf=([^;]+)/.exec(cookie ?? '')?.[1];
  if (value === undefined) throw new Error(`no csrf cookie in ${cookie}`);
  return value;
}

function formTokenIn(html: string): string | undefined {
  return new RegExp(`name="${FORM_TOKEN_FIELD}" value="([^"]+)"`).exec(html)?.[1];
}

const PAGE_TITLE = (status: number) => new RegExp(`<title>${status}: [^<]+</title>`);

describe('methods', () => {
  test('a route without an action answers a POST with 405 and Allow: GET, HEAD', async () => {
    const { app, runs } = formApp();
    const res = await request(app).post('/plain').set('Sec-Fetch-Site', 'same-origin').type('form').send({ name: 'Ada' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.text).toMatch(PAGE_TITLE(405));
    expect(runs).toEqual([]);
  });

  test('a route with an action advertises POST on other methods', async () => {
    const { app } = formApp();
    const res = await request(app).put('/signup/news').set('Sec-Fetch-Site', 'same-origin').type('form').send({ name: 'Ada' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
  });

  test("route(path, module) takes the module's action", async () => {
    const action = () => ({ saved: 'from-module' });
    const fromModule = route('/module', { default: ({ actionData }: PageProps) => <p id="from">{JSON.stringify(actionData)}</p>, action });
    expect(fromModule.action).toBe(action);
    const { app } = buildApp([fromModule], { forms: { secret: SECRET } });
    const res = await request(app).post('/module').set('Sec-Fetch-Site', 'same-origin').type('form').send({});
    expect(res.status).toBe(200);
    expect(res.text).toContain('from-module');
  });

  test('an app with an action needs a secret of at least 32 characters', () => {
    const routes = createRoutes([]);
    expect(() => buildApp(routes, { forms: undefined })).toThrow('forms: { secret }');
    expect(() => buildApp(routes, { forms: { secret: 'too-short' } })).toThrow('at least 32 characters');
  });

  test('an app without actions hands out no token: no cookie, no field', async () => {
    const { app } = buildApp([defineRoute({ path: '/', component: () => <Form method="post">x</Form> })]);
    const res = await request(app).get('/');
    expect(res.status).toBe(200);
    expect(setCookie(res)).toBeUndefined();
    expect(formTokenIn(res.text)).toBeUndefined();
  });
});

describe('what an action answers', () => {
  test('redirect(): 303 See Other with Location, for an urlencoded form', async () => {
    const { app, runs } = formApp();
    const res = await request(app).post('/signup/news').set('Sec-Fetch-Site', 'same-origin').type('form').send({ intent: 'redirect', name: 'Ada' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/signup/done?from=action');
    expect(res.text).toBe('');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ method: 'POST', params: { list: 'news' }, frozen: true, body: { intent: 'redirect', name: 'Ada' } });
  });

  test('redirect() for an in-place submission: 204 naming where to go, which the page then loads itself', async () => {
    const { app } = formApp();
    const res = await request(app)
      .post('/signup/news')
      .set('Sec-Fetch-Site', 'same-origin')
      .set('X-Navigation', 'data')
      .set('X-Navigation-Scope', 'n1')
      .type('form')
      .send({ intent: 'redirect', name: 'Ada' });
    expect(res.status).toBe(204);
    expect(res.headers['x-navigation-redirect']).toBe('/signup/done?from=action');
    expect(res.headers.location).toBeUndefined();
  });

  test('redirect(): 303 for a JSON body too', async () => {
    const { app, runs } = formApp();
    const res = await request(app)
      .post('/signup/news')
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ intent: 'redirect', name: 'Ada', tags: ['a', 'b'] });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/signup/done?from=action');
    expect(runs[0]?.body).toEqual({ intent: 'redirect', name: 'Ada', tags: ['a', 'b'] });
  });

  test('invalid(): the page again with 422, the field errors and the submitted values', async () => {
    const { app } = formApp();
    const res = await request(app).post('/signup/news').set('Sec-Fetch-Site', 'same-origin').type('form').send({ name: '', email: 'ada@example.com' });
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<p id="error-name">NAME-REQUIRED</p>');
    // The values as the action gave them, escaped as any text is.
    expect(res.text).toContain('value="ada@example.com&lt;echo&gt;"');
    // The page's load ran again for the answer.
    expect(res.text).toContain('<p id="load">POST load</p>');
  });

  test('any other value: the page again with 200 and the value as actionData', async () => {
    const { app } = formApp();
    const res = await request(app).post('/signup/news').set('Sec-Fetch-Site', 'same-origin').type('form').send({ name: 'Ada' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<p id="saved">SAVED:Ada</p>');
    expect(res.text).not.toContain('error-name');
  });

  test('an in-place submission (X-Navigation: data) gets the data answer with the same status', async () => {
    const { app } = formApp();
    const res = await request(app)
      .post('/signup/news')
      .set('Sec-Fetch-Site', 'same-origin')
      .set(NAVIGATION_HEADER, 'data')
      .set(NAVIGATION_SCOPE_HEADER, 'n1')
      .type('form')
      .send({ name: '' });
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
  });

  test('the action gets the context of load: the app context, and a body without the token field', async () => {
    const { app, runs } = formApp({ getLoadContext: () => ({ tenant: 't-1' }) as never });
    await request(app)
      .post('/signup/news?x=1')
      .set('Sec-Fetch-Site', 'same-origin')
      .type('form')
      .send({ name: 'Ada', [FORM_TOKEN_FIELD]: 'whatever' });
    expect(runs).toHaveLength(1);
    expect(runs[0]?.body).toEqual({ name: 'Ada' });
    expect(runs[0]?.context).toEqual({ tenant: 't-1' });
    expect(runs[0]?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/signup\/news\?x=1$/);
  });

  test('a status helper ends in its status page; a throw in the 500 page with one error line', async () => {
    const { app, logs } = formApp();
    const refused = await request(app).post('/signup/news').set('Sec-Fetch-Site', 'same-origin').type('form').send({ intent: 'forbidden' });
    expect(refused.status).toBe(403);
    expect(errorLines(logs)).toEqual([]);

    const failed = await request(app).post('/signup/news').set('Sec-Fetch-Site', 'same-origin').type('form').send({ intent: 'throw' });
    expect(failed.status).toBe(500);
    expect(failed.text).not.toContain('SECRET-ACTION-DETAIL');
    const errors = errorLines(logs);
    expect(errors).toHaveLength(1);
    expect(failed.text).toContain(String(errors[0]?.digest));
  });
});

describe('redirect() stays on this site', () => {
  test.each(['https://evil.example/', '//evil.example/path', '/\\evil.example/path', 'javascript:alert(1)'])(
    'redirect(%j) is refused: the 500 page and one error line, no Location',
    async (to) => {
      const { app, logs } = formApp();
      const res = await request(app).post('/signup/news').set('Sec-Fetch-Site', 'same-origin').type('form').send({ intent: 'redirect-absolute', to });
      expect(res.status).toBe(500);
      expect(res.headers.location).toBeUndefined();
      const errors = errorLines(logs);
      expect(errors).toHaveLength(1);
      expect(JSON.stringify(errors[0])).toContain('redirect() refused');
      expect(res.text).toContain(String(errors[0]?.digest));
    },
  );

  test('an absolute URL of the public origin is answered with its path', async () => {
    const { app } = formApp({ publicOrigin: new URL('https://shop.example.com') });
    const res = await request(app)
      .post('/signup/news')
      .set('Sec-Fetch-Site', 'same-origin')
      .type('form')
      .send({ intent: 'redirect-absolute', to: 'https://shop.example.com/orders/42?ok=1#top' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/orders/42?ok=1#top');
  });

  test("the request's own origin counts when no public origin is set; a relative path resolves against the post", async () => {
    const { app } = formApp();
    const absolute = await request(app)
      .post('/signup/news')
      .set('Host', 'app.test:8080')
      .set('Sec-Fetch-Site', 'same-origin')
      .type('form')
      .send({ intent: 'redirect-absolute', to: 'http://app.test:8080/thanks' });
    expect(absolute.status).toBe(303);
    expect(absolute.headers.location).toBe('/thanks');
    const relative = await request(app).post('/signup/news').set('Sec-Fetch-Site', 'same-origin').type('form').send({ intent: 'redirect-absolute', to: 'done' });
    expect(relative.headers.location).toBe('/signup/done');
  });
});

describe('bodies', () => {
  afterEach(closeTestServers);

  async function start(built: TestApp): Promise<{ port: number; sockets: Socket[] }> {
    const { server, port } = await listenForTest(built.app);
    const sockets: Socket[] = [];
    server.on('connection', (socket: Socket) => sockets.push(socket));
    return { port, sockets };
  }

  /** An urlencoded form of exactly `bytes` bytes. */
  function formOfSize(bytes: number): string {
    const start = 'name=Ada&pad=';
    return start + 'x'.repeat(bytes - start.length);
  }

  function postHead(contentType: string, framing: string): string {
    return `POST /signup/news HTTP/1.1\r\nHost: localhost\r\nSec-Fetch-Site: same-origin\r\nContent-Type: ${contentType}\r\n${framing}\r\n`;
  }

  test.each([
    [ACTION_BODY_LIMIT_BYTES, 200],
    [ACTION_BODY_LIMIT_BYTES + 1, 413],
  ])('a chunked urlencoded body of %i bytes gets %i', async (bytes, status) => {
    const built = formApp();
    const { port } = await start(built);
    const connection = await openRawConnection(port);
    const body = formOfSize(bytes);
    const half = Math.floor(bytes / 2);
    // Two chunks: the count must add them up.
    const frames = [body.slice(0, half), body.slice(half)].map((chunk) => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    connection.write(`${postHead('application/x-www-form-urlencoded', 'Transfer-Encoding: chunked\r\nConnection: close\r\n')}${frames}0\r\n\r\n`);
    await connection.closedWithin(2_000);
    connection.destroy();
    const responses = splitResponses(connection.received());
    expect(responses.map((response) => response.status)).toEqual([status]);
    if (status === 413) expect(responses[0]?.body).toMatch(PAGE_TITLE(413));
    expect(built.runs).toHaveLength(status === 200 ? 1 : 0);
  });

  test.each([
    [ACTION_FIELD_LIMIT, 200],
    [ACTION_FIELD_LIMIT + 1, 413],
  ])('an urlencoded body of %i fields, far under the byte limit, gets %i', async (fields, status) => {
    const built = formApp();
    const body = ['name=Ada', ...Array.from({ length: fields - 1 }, (_, index) => `f${index}=`)].join('&');
    expect(body.length).toBeLessThan(ACTION_BODY_LIMIT_BYTES / 4);
    const res = await request(built.app).post('/signup/news').set('Sec-Fetch-Site', 'same-origin').type('form').send(body);
    expect(res.status).toBe(status);
    if (status === 413) expect(res.text).toMatch(PAGE_TITLE(413));
    expect(built.runs).toHaveLength(status === 200 ? 1 : 0);
  });

  test('an HTTP/1.0 post without Host, whose redirect would have no origin to resolve against, gets 400 before the action runs', async () => {
    // An action that never reads `request`, whose URL would be made, and refused, as it is read.
    const saved: string[] = [];
    const routes = [
      defineRoute({
        path: '/save',
        component: () => <h1>Save</h1>,
        action: ({ body }: ActionContext) => {
          saved.push(String(body.name));
          return redirect('/saved');
        },
      }),
    ];
    const head = (body: string) =>
      `POST /save HTTP/1.0\r\nSec-Fetch-Site: same-origin\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const built = buildApp(routes, { forms: { secret: SECRET } });
    const connection = await openRawConnection((await start(built)).port);
    connection.write(head('name=Ada'));
    await connection.closedWithin(2_000);
    const [response] = splitResponses(connection.received());
    expect(response?.status).toBe(400);
    expect(response?.body).toMatch(PAGE_TITLE(400));
    // Before, the action ran (and would have committed), then its redirect found no origin: a 400 for a change made.
    expect(saved).toEqual([]);
    // With a public origin there is one to resolve against, Host or not: the action runs and redirects.
    const withOrigin = buildApp(routes, { forms: { secret: SECRET }, publicOrigin: new URL('https://shop.example.com') });
    const second = await openRawConnection((await start(withOrigin)).port);
    second.write(head('name=Grace'));
    await second.closedWithin(2_000);
    expect(splitResponses(second.received())[0]?.status).toBe(303);
    expect(saved).toEqual(['Grace']);
  });

  test('a declared length one byte over the limit gets 413 before the body is read, and the connection closes', async () => {
    const built = formApp();
    const { port } = await start(built);
    const connection = await openRawConnection(port);
    connection.write(postHead('application/x-www-form-urlencoded', `Content-Length: ${ACTION_BODY_LIMIT_BYTES + 1}\r\n`));
    expect(await connection.closedWithin(2_000)).toBeLessThan(2_000);
    const [response] = splitResponses(connection.received());
    expect(response?.status).toBe(413);
    expect(response?.head).toMatch(/\r\nConnection: close/i);
    expect(built.runs).toEqual([]);
  });

  test('an endless chunked body gets 413 at the limit, not read on, and the connection closes', async () => {
    const built = formApp();
    const listening = await start(built);
    const connection = await openRawConnection(listening.port);
    connection.write(postHead('application/x-www-form-urlencoded', 'Transfer-Encoding: chunked\r\n'));
    await sendEndlessChunks(connection, 3_000);
    const closedAfterMs = await connection.closedWithin(3_000);
    connection.destroy();
    const responses = splitResponses(connection.received());
    expect(responses.map((response) => response.status)).toEqual([413]);
    expect(responses[0]?.head).toMatch(/\r\nConnection: close/i);
    expect(closedAfterMs).toBeLessThan(3_000);
    const bytesRead = listening.sockets.reduce((sum, socket) => sum + socket.bytesRead, 0);
    expect(bytesRead).toBeLessThan(4 * 1024 * 1024);
    expect(errorLines(built.logs)).toEqual([]);
  });

  test.each([
    ['text/plain', 'name=Ada'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n--x--\r\n'],
  ])('%s gets 415, unread, and the connection closes', async (type, body) => {
    const built = formApp();
    const { port } = await start(built);
    const res = await rawRequest(port, `${postHead(type, `Content-Length: ${body.length}\r\n`)}${body}`);
    expect(res.status).toBe(415);
    expect(res.body).toMatch(PAGE_TITLE(415));
    expect(res.head).toMatch(/\r\nConnection: close/i);
    expect(built.runs).toEqual([]);
  });

  test('a compressed body gets 415', async () => {
    const { app, runs } = formApp();
    const res = await request(app).post('/signup/news').set('Sec-Fetch-Site', 'same-origin').set('Content-Encoding', 'gzip').type('form').send('name=Ada');
    expect(res.status).toBe(415);
    expect(runs).toEqual([]);
  });

  test.each([
    ['malformed JSON', '{"name": '],
    ['a JSON array', '["name"]'],
    ['JSON null', 'null'],
  ])('%s gets the 400 page', async (_case, body) => {
    const { app, runs, logs } = formApp();
    const res = await request(app).post('/signup/news').set('Sec-Fetch-Site', 'same-origin').set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(PAGE_TITLE(400));
    expect(runs).toEqual([]);
    expect(errorLines(logs)).toEqual([]);
  });

  test('no body at all reaches the action as {}', async () => {
    const { app, runs } = formApp();
    const res = await request(app).post('/signup/news').set('Sec-Fetch-Site', 'same-origin');
    expect(res.status).toBe(422);
    expect(runs[0]?.body).toEqual({});
  });
});

describe('the cross-site check', () => {
  async function tokenFromPage(app: TestApp['app']): Promise<{ cookie: string; field: string }> {
    const page = await request(app).get('/signup/news');
    const cookie = cookieValue(setCookie(page));
    const field = formTokenIn(page.text);
    if (field === undefined) throw new Error('no token field in the form');
    return { cookie, field };
  }

  test.each([
    ['cross-site', 'cross-site'],
    ['same-site', 'same-site'],
    ['websocket', 'unknown sec-fetch-site'],
  ])('Sec-Fetch-Site: %s gets the 403 page, one warning with the reason, and the action never runs', async (site, reason) => {
    const { app, runs, logs } = formApp();
    const res = await request(app).post('/signup/news').set('Sec-Fetch-Site', site).set('Origin', 'http://127.0.0.1').type('form').send({ name: 'Ada' });
    expect(res.status).toBe(403);
    expect(res.text).toMatch(PAGE_TITLE(403));
    expect(runs).toEqual([]);
    expect(warnLines(logs)).toHaveLength(1);
    expect(csrfLines(logs)).toEqual([expect.objectContaining({ level: LEVEL.warn, reason, route: '/signup/:list' })]);
  });

  test.each(['same-origin', 'none'])('Sec-Fetch-Site: %s runs the action, whatever the Origin', async (site) => {
    const { app, runs, logs } = formApp();
    const res = await request(app).post('/signup/news').set('Sec-Fetch-Site', site).set('Origin', 'https://evil.example').type('form').send({ name: 'Ada' });
    expect(res.status).toBe(200);
    expect(runs).toHaveLength(1);
    expect(csrfLines(logs)).toEqual([]);
  });

  test.each([
    ['another host', 'http://evil.example', 'origin mismatch'],
    ['another port', 'http://app.test:8081', 'origin mismatch'],
    ['another scheme', 'https://app.test:8080', 'origin mismatch'],
    ['null', 'null', 'origin null'],
  ])('without Sec-Fetch-Site, an Origin of %s gets 403', async (_case, origin, reason) => {
    const { app, runs, logs } = formApp();
    const res = await request(app).post('/signup/news').set('Host', 'app.test:8080').set('Origin', origin).type('form').send({ name: 'Ada' });
    expect(res.status).toBe(403);
    expect(runs).toEqual([]);
    expect(csrfLines(logs)).toEqual([expect.objectContaining({ reason })]);
  });

  test("an Origin matching the request's own origin runs the action", async () => {
    const { app, runs } = formApp();
    const res = await request(app).post('/signup/news').set('Host', 'app.test:8080').set('Origin', 'http://app.test:8080').type('form').send({ name: 'Ada' });
    expect(res.status).toBe(200);
    expect(runs).toHaveLength(1);
  });

  test("behind a trusted proxy the origin is the forwarded one; with PUBLIC_ORIGIN, that one and not Host's", async () => {
    const proxied = formApp({ trustProxy: 'loopback' });
    const viaProxy = await request(proxied.app)
      .post('/signup/news')
      .set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-Host', 'www.example.org')
      .set('Origin', 'https://www.example.org')
      .type('form')
      .send({ name: 'Ada' });
    expect(viaProxy.status).toBe(200);

    const fixed = formApp({ publicOrigin: new URL('https://shop.example.com') });
    const own = await request(fixed.app).post('/signup/news').set('Host', 'evil.example').set('Origin', 'https://shop.example.com').type('form').send({ name: 'Ada' });
    expect(own.status).toBe(200);
    const byHost = await request(fixed.app).post('/signup/news').set('Host', 'evil.example').set('Origin', 'http://evil.example').type('form').send({ name: 'Ada' });
    expect(byHost.status).toBe(403);
  });

  test('neither header and no token: 403, missing token', async () => {
    const { app, runs, logs } = formApp();
    const res = await request(app).post('/signup/news').type('form').send({ name: 'Ada' });
    expect(res.status).toBe(403);
    expect(runs).toEqual([]);
    expect(csrfLines(logs)).toEqual([expect.objectContaining({ reason: 'missing token' })]);
  });

  test("neither header, with the page's cookie and the form's field: the action runs", async () => {
    const { app, runs } = formApp();
    const { cookie, field } = await tokenFromPage(app);
    expect(field).toBe(cookie);
    const res = await request(app)
      .post('/signup/news')
      .set('Cookie', `${CSRF_COOKIE}=${cookie}`)
      .type('form')
      .send({ name: 'Ada', [FORM_TOKEN_FIELD]: field });
    expect(res.status).toBe(200);
    expect(runs).toHaveLength(1);
    // The cookie is still good: the page shown again sets none.
    expect(setCookie(res)).toBeUndefined();
    expect(formTokenIn(res.text)).toBe(cookie);
  });

  test('the token may come in a JSON body too', async () => {
    const { app, runs } = formApp();
    const { cookie, field } = await tokenFromPage(app);
    const res = await request(app)
      .post('/signup/news')
      .set('Cookie', `${CSRF_COOKIE}=${cookie}`)
      .send({ name: 'Ada', [FORM_TOKEN_FIELD]: field });
    expect(res.status).toBe(200);
    expect(runs[0]?.body).toEqual({ name: 'Ada' });
  });

  test('a token signed with another secret: 403, bad signature', async () => {
    const { app, runs, logs } = formApp();
    const forged = issueToken(OTHER_SECRET);
    const res = await request(app)
      .post('/signup/news')
      .set('Cookie', `${CSRF_COOKIE}=${forged}`)
      .type('form')
      .send({ name: 'Ada', [FORM_TOKEN_FIELD]: forged });
    expect(res.status).toBe(403);
    expect(runs).toEqual([]);
    expect(csrfLines(logs)).toEqual([expect.objectContaining({ reason: 'bad signature' })]);
  });

  test.each([
    ['a token without a signature', 'AAAAAAAAAAAAAAAAAAAAAA'],
    ['a signature cut short', `${issueToken(SECRET).slice(0, -1)}`],
  ])('%s in both: 403', async (_case, token) => {
    const { app, runs } = formApp();
    const res = await request(app)
      .post('/signup/news')
      .set('Cookie', `${CSRF_COOKIE}=${token}`)
      .type('form')
      .send({ name: 'Ada', [FORM_TOKEN_FIELD]: token });
    expect(res.status).toBe(403);
    expect(runs).toEqual([]);
  });

  test('a valid token in the field but another in the cookie: 403, token mismatch', async () => {
    const { app, runs, logs } = formApp();
    const { field } = await tokenFromPage(app);
    const res = await request(app)
      .post('/signup/news')
      .set('Cookie', `${CSRF_COOKIE}=${issueToken(SECRET)}`)
      .type('form')
      .send({ name: 'Ada', [FORM_TOKEN_FIELD]: field });
    expect(res.status).toBe(403);
    expect(runs).toEqual([]);
    expect(csrfLines(logs)).toEqual([expect.objectContaining({ reason: 'token mismatch' })]);
  });

  test('a token in the cookie only: 403, missing token', async () => {
    const { app, logs } = formApp();
    const { cookie } = await tokenFromPage(app);
    const res = await request(app).post('/signup/news').set('Cookie', `${CSRF_COOKIE}=${cookie}`).type('form').send({ name: 'Ada' });
    expect(res.status).toBe(403);
    expect(csrfLines(logs)).toEqual([expect.objectContaining({ reason: 'missing token' })]);
  });
});

describe('the form token on pages', () => {
  test('the first GET sets the cookie (HttpOnly, SameSite=Lax, Path=/), and the form carries the same token', async () => {
    const { app } = formApp();
    const res = await request(app).get('/signup/news');
    const cookie = setCookie(res);
    expect(cookie).toMatch(/^csrf=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(formTokenIn(res.text)).toBe(cookieValue(cookie));
  });

  test('a GET with a valid cookie sets none and reuses its token; an invalid cookie is replaced', async () => {
    const { app } = formApp();
    const token = issueToken(SECRET);
    const again = await request(app).get('/signup/news').set('Cookie', `theme=dark; ${CSRF_COOKIE}=${token}`);
    expect(setCookie(again)).toBeUndefined();
    expect(formTokenIn(again.text)).toBe(token);

    const forged = await request(app)
      .get('/signup/news')
      .set('Cookie', `${CSRF_COOKIE}=${issueToken(OTHER_SECRET)}`);
    const fresh = cookieValue(setCookie(forged));
    expect(formTokenIn(forged.text)).toBe(fresh);
    expect(fresh).not.toBe(token);
  });

  test('the cookie is Secure when the request is https (a trusted proxy says so) or the public origin is', async () => {
    const proxied = formApp({ trustProxy: 'loopback' });
    const viaProxy = await request(proxied.app).get('/signup/news').set('X-Forwarded-Proto', 'https');
    expect(setCookie(viaProxy)).toMatch(/; Secure/);
    const plain = await request(proxied.app).get('/signup/news');
    expect(setCookie(plain)).not.toMatch(/Secure/);
    const fixed = formApp({ publicOrigin: new URL('https://shop.example.com') });
    expect(setCookie(await request(fixed.app).get('/signup/news'))).toMatch(/; Secure/);
  });

  test('each GET without a cookie gets its own token', async () => {
    const { app } = formApp();
    const first = cookieValue(setCookie(await request(app).get('/signup/news')));
    const second = cookieValue(setCookie(await request(app).get('/signup/news')));
    expect(first).not.toBe(second);
  });
});

describe('the log', () => {
  test('never holds a token, a cookie value or the secret', async () => {
    const { app, logs } = formApp();
    const page = await request(app).get('/signup/news');
    const token = cookieValue(setCookie(page));
    const forged = issueToken(OTHER_SECRET);
    await request(app)
      .post('/signup/news')
      .set('Cookie', `${CSRF_COOKIE}=${token}`)
      .type('form')
      .send({ name: 'Ada', [FORM_TOKEN_FIELD]: token });
    await request(app)
      .post('/signup/news')
      .set('Cookie', `${CSRF_COOKIE}=${forged}`)
      .type('form')
      .send({ name: 'Ada', [FORM_TOKEN_FIELD]: forged });
    await request(app)
      .post('/signup/news')
      .set('Cookie', `${CSRF_COOKIE}=${token}`)
      .type('form')
      .send({ name: 'Ada', [FORM_TOKEN_FIELD]: forged });
    await request(app)
      .post('/signup/news')
      .set('Cookie', `${CSRF_COOKIE}=${token}`)
      .type('form')
      .send({ intent: 'throw', [FORM_TOKEN_FIELD]: token });
    expect(csrfLines(logs)).toHaveLength(2);
    expect(errorLines(logs)).toHaveLength(1);
    const text = JSON.stringify(logs);
    for (const secret of [token, forged, token.split('.')[0] ?? token, forged.split('.')[1] ?? forged, SECRET]) expect(text).not.toContain(secret);
  });
});

describe("a document's head", () => {
  /** Header names as sent, lower-cased, in order. */
  function namesOf(res: request.Response): string[] {
    const { rawHeaders } = (res as unknown as { res: { rawHeaders: string[] } }).res;
    return rawHeaders.filter((_value, i) => i % 2 === 0).map((name) => name.toLowerCase());
  }

  test.each([
    ['a page without an action, in an app with actions (no token, no cookie)', '/plain', undefined, false],
    ['a page with a form', '/signup/a', 'identity', true],
    ['a page with a form, compressed', '/signup/a', 'br', true],
  ])('%s carries every header once: HTML, security, its policy for the nonce, timing, request id, the cookie', async (_what, path, encoding, cookie) => {
    const { app } = formApp();
    const res = await request(app)
      .get(path)
      .set('Accept-Encoding', encoding ?? 'identity');
    expect(res.status).toBe(200);
    const names = namesOf(res);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    for (const name of [
      'content-type',
      'cache-control',
      'x-accel-buffering',
      'vary',
      'strict-transport-security',
      'x-frame-options',
      'permissions-policy',
      'content-security-policy',
      'server-timing',
      'x-request-id',
    ]) {
      expect(names, name).toContain(name);
    }
    expect(String(res.headers['content-security-policy'])).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]{22,}' 'strict-dynamic'/);
    expect(res.headers['content-encoding']).toBe(encoding === 'br' ? 'br' : undefined);
    if (cookie) expect(setCookie(res)).toMatch(/^csrf=/);
    else expect(setCookie(res)).toBeUndefined();
  });

  test("keeps the page's own cookies beside the form token's, each once", async () => {
    const { app } = formApp({
      getLoadContext: ({ responseHeaders }) => {
        responseHeaders.append('Set-Cookie', 'theme=dark; Path=/');
        responseHeaders.append('Set-Cookie', 'seen=1; Path=/');
        return {} as never;
      },
    });
    const res = await request(app).get('/signup/a');
    expect(res.status).toBe(200);
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []).map((cookie) => cookie.split('=')[0]);
    expect(cookies.sort()).toEqual(['csrf', 'seen', 'theme']);
    expect(formTokenIn(res.text)).toBe(cookieValue(setCookie(res)));
  });

  test("an in-place navigation's data sets the token's cookie too, for the form it brings", async () => {
    const { app } = formApp();
    const res = await request(app).get('/signup/a').set({ 'X-Navigation': 'data', 'X-Navigation-Scope': 'n1', Accept: 'application/x-ndjson' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(setCookie(res)).toMatch(/^csrf=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  test('a page whose request holds a valid token sets no cookie, and its form carries that token', async () => {
    const { app } = formApp();
    const first = await request(app).get('/signup/a');
    const token = cookieValue(setCookie(first));
    const again = await request(app).get('/signup/a').set('Cookie', `${CSRF_COOKIE}=${token}`);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(formTokenIn(again.text)).toBe(token);
  });
});
