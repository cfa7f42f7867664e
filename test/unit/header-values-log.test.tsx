import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp } from '../../server/app.ts';
import { createLogger } from '../../server/observability/logger.ts';
import { data, redirect } from '../../shared/api/answers.ts';
import { defineRoute, type RouteDefinition } from '../../shared/api/route-definition.ts';
import { TEST_FORMS } from '../support/build-app.ts';

/**
 * A header value no header may hold (CR, LF…), given by a route: refused with the 500 page, and
 * its value (a session cookie, a token) reaches the log in no field, neither the message nor the
 * stack (docs/security.md, "Header values never reach the log"). The log is read as the raw
 * text the logger writes, so no field is missed.
 */

/** What each refused value holds: none of it may be in the log, before the line break or after. */
const COOKIE = 'COOKIE-VALUE-7f3a';
const SMUGGLED = 'SMUGGLED-AFTER-LF';
const TOKEN = 'TOKEN-VALUE-91c2';

const WITH_LINE_BREAK = `sid=${COOKIE}; Path=/\r\nX-Injected: ${SMUGGLED}`;

function page(path: string, load: () => unknown): RouteDefinition {
  return defineRoute({ path, component: () => <p>PAGE</p>, load });
}

const routes: RouteDefinition[] = [
  page('/cookie', () => data({}, { headers: { 'Set-Cookie': WITH_LINE_BREAK } })),
  page('/cookie-pairs', () =>
    data(
      {},
      {
        headers: [
          ['Set-Cookie', 'ok=1; Path=/'],
          ['Set-Cookie', `sid=${COOKIE}\n${SMUGGLED}`],
        ],
      },
    ),
  ),
  page('/cookie-nul', () => data({}, { headers: { 'Set-Cookie': `sid=${COOKIE}\u0000${SMUGGLED}` } })),
  page('/cookie-control', () => data({}, { headers: { 'Set-Cookie': `sid=${COOKIE}\u0001${SMUGGLED}` } })),
  page('/cookie-wide', () => data({}, { headers: { 'Set-Cookie': `sid=${COOKIE}€${SMUGGLED}` } })),
  page('/authorization', () => data({}, { headers: { Authorization: `Bearer ${TOKEN}\r\n${SMUGGLED}` } })),
  page('/own-header', () => data({}, { headers: { 'X-Api-Token': `${TOKEN}\r\n${SMUGGLED}` } })),
  // Fetch's Headers takes a control character; Node's head would not.
  page('/headers-control', () => data({}, { headers: new Headers({ 'Set-Cookie': `sid=${COOKIE}\u0001${SMUGGLED}` }) })),
  page('/redirect', () => redirect('/', { headers: { 'Set-Cookie': WITH_LINE_BREAK } })),
  // Built by the route itself: Fetch's own error, quoting the value, is what reaches the log.
  page('/own-headers-object', () => data({}, { headers: new Headers({ 'Set-Cookie': WITH_LINE_BREAK }) })),
  defineRoute({ path: '/resource', load: () => new Response('x', { headers: { 'Set-Cookie': WITH_LINE_BREAK } }) }),
  defineRoute({
    path: '/action',
    component: () => <p>FORM</p>,
    action: () => data({ saved: true }, { headers: { 'Set-Cookie': WITH_LINE_BREAK } }),
  }),
  page('/fine', () => data({}, { headers: { 'Set-Cookie': ` sid=${COOKIE}; Path=/\r\n` } })),
];

function logged() {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(line) } });
  return { app: createApp({ app: { routes }, logger, forms: TEST_FORMS }), lines };
}

function errorOf(lines: readonly string[]): { name: string; message: string; stack: string } {
  const errors = lines.map((line) => JSON.parse(line)).filter((line) => line.level >= 50);
  expect(errors).toHaveLength(1);
  return errors[0].err;
}

describe('a header value no header may hold', () => {
  test.each([
    ['/cookie', 'Set-Cookie'],
    ['/cookie-pairs', 'Set-Cookie'],
    ['/cookie-nul', 'Set-Cookie'],
    ['/cookie-control', 'Set-Cookie'],
    ['/cookie-wide', 'Set-Cookie'],
    ['/authorization', 'Authorization'],
    ['/own-header', 'X-Api-Token'],
    ['/headers-control', 'set-cookie'],
  ])('in data() on %s: the 500 page, and one error line that names the header, never its value', async (path, header) => {
    const { app, lines } = logged();
    const res = await request(app).get(path);
    expect(res.status).toBe(500);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['x-injected']).toBeUndefined();
    const err = errorOf(lines);
    expect(err.name).toBe('HeaderValueError');
    expect(err.message).toBe(
      `data() set a ${header} header holding a character a header may not hold (CR, LF, another control character, or one above U+00FF); its value is left out of this message`,
    );
    expect(err.stack).toContain(err.message);
    const raw = lines.join('\n');
    for (const secret of [COOKIE, SMUGGLED, TOKEN]) expect(raw).not.toContain(secret);
  });

  test("in an action's data(): the same", async () => {
    const { app, lines } = logged();
    const res = await request(app).post('/action').set('Sec-Fetch-Site', 'same-origin').type('form').send({ a: '1' });
    expect(res.status).toBe(500);
    expect(errorOf(lines)).toMatchObject({ name: 'HeaderValueError', message: expect.stringContaining('data() set a Set-Cookie header') });
    expect(lines.join('\n')).not.toContain(COOKIE);
    expect(lines.join('\n')).not.toContain(SMUGGLED);
  });

  test("in redirect()'s headers: the 500 page, the header named, never its value", async () => {
    const { app, lines } = logged();
    const res = await request(app).get('/redirect');
    expect(res.status).toBe(500);
    expect(res.headers.location).toBeUndefined();
    expect(errorOf(lines)).toMatchObject({ name: 'HeaderValueError', message: expect.stringContaining('redirect() set a Set-Cookie header') });
    expect(lines.join('\n')).not.toContain(COOKIE);
    expect(lines.join('\n')).not.toContain(SMUGGLED);
  });

  test.each(['/own-headers-object', '/resource'])("in Headers or a Response the route built itself, on %s: Fetch's refusal is logged without the value it quoted", async (path) => {
    const { app, lines } = logged();
    const res = await request(app).get(path);
    expect(res.status).toBe(500);
    const err = errorOf(lines);
    expect(err.name).toBe('TypeError');
    expect(err.message).toBe('Headers.append: a header value (left out of the log) is an invalid header value.');
    expect(err.stack).toMatch(/^TypeError: Headers\.append: a header value \(left out of the log\) is an invalid header value\.\n\s+at /);
    expect(lines.join('\n')).not.toContain(COOKIE);
    expect(lines.join('\n')).not.toContain(SMUGGLED);
  });

  test('line breaks and spaces at either end are trimmed, as Fetch trims them: the cookie is sent', async () => {
    const { app, lines } = logged();
    const res = await request(app).get('/fine');
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']).toEqual([`sid=${COOKIE}; Path=/`]);
    expect(lines.map((line) => JSON.parse(line)).filter((line) => line.level >= 40)).toEqual([]);
  });
});
