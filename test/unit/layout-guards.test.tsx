import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { redirect } from '../../shared/api/action-helpers.ts';
import { NAVIGATION_FETCHER_HEADER, NAVIGATION_HEADER, NAVIGATION_KEEP_HEADER, NAVIGATION_SCOPE_HEADER } from '../../shared/protocol/navigation-headers.ts';
import { defineRoute, layout, type LayoutModule, type LoadContext, type RouteTableEntry } from '../../shared/api/route-definition.ts';
import { Outlet } from '../../shared/api/route-hooks.tsx';
import { isRouteErrorResponse, useRouteError } from '../../shared/api/route-errors.tsx';
import { forbidden, unauthorized } from '../../shared/api/status-helpers.ts';
import { asHydrating, buildApp, errorLines } from '../support/build-app.ts';

/**
 * A layout's refusal protects every request inside it (docs/security.md#guards): a section whose
 * layout `load` refuses anonymous visitors (401), readers (403) and the signed-out (a redirect),
 * around a page whose `load` returns admin-only data and trusts the layout, with an action, and a
 * resource route with a load and an action. Every request kind, with the headers the browser's
 * runtime sends and forged keep and scope headers, is refused, and nothing inside ran.
 */

const SECRET = 'ADMIN-ONLY-REPORT';

/** Who the request says it is: the `role` cookie stands in for a session. */
function guard({ cookies }: LoadContext): { readonly admin: string } {
  if (cookies.role === 'gone') redirect('/sign-in');
  if (cookies.role === undefined) unauthorized();
  if (cookies.role !== 'admin') forbidden();
  return { admin: 'Ada' };
}

function SectionError() {
  const error = useRouteError();
  return <p>SECTION-BOUNDARY {isRouteErrorResponse(error) ? error.status : 'other'}</p>;
}

/** What ran inside the guarded section: every inner load and action notes itself. */
function guardedSection({ boundary }: { readonly boundary: boolean }) {
  const ran: string[] = [];
  const shell: LayoutModule = { default: () => <Outlet />, load: () => ({ shell: true }) };
  const section: LayoutModule = {
    default: () => <Outlet />,
    // Awaits first, as a session lookup would: an inner load started alongside would note itself first.
    load: async (context) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      return guard(context);
    },
    ...(boundary ? { ErrorBoundary: SectionError } : {}),
  };
  const table: RouteTableEntry[] = [
    layout(
      shell,
      [
        layout(
          section,
          [
            defineRoute({
              path: '/admin/report',
              component: ({ data }) => <main>{String(data)}</main>,
              load: () => {
                ran.push('page load');
                return SECRET;
              },
              action: () => {
                ran.push('page action');
                return { done: SECRET };
              },
            }),
            defineRoute({
              path: '/admin/export',
              load: () => {
                ran.push('resource load');
                return new Response(SECRET);
              },
              action: () => {
                ran.push('resource action');
                return new Response(SECRET);
              },
            }),
            // A resource route that returns its data, sent as Response.json() would send it.
            defineRoute({
              path: '/admin/export.json',
              load: () => {
                ran.push('resource data load');
                return { secret: SECRET };
              },
              action: () => {
                ran.push('resource data action');
                return { saved: SECRET };
              },
            }),
          ],
          { id: 'admin' },
        ),
        defineRoute({ path: '/sign-in', component: () => <main>SIGN IN</main> }),
      ],
      { id: 'shell' },
    ),
  ];
  const { routes, assets } = asHydrating(table);
  return { ...buildApp(routes, { assets }), ran };
}

const ACCEPT_DATA = 'application/x-ndjson, application/json;q=0.9';
/** Forged: the browser says it keeps both layouts, so their data (and, before, their loads) would be left out. */
const FORGED = { [NAVIGATION_HEADER]: 'data', [NAVIGATION_SCOPE_HEADER]: 'n1', [NAVIGATION_KEEP_HEADER]: 'shell,admin', Accept: ACCEPT_DATA };
const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin' };

type App = ReturnType<typeof guardedSection>['app'];
type Kind = readonly [name: string, send: (app: App, cookie: string) => request.Test];

const get =
  (path: string, headers: Record<string, string> = {}) =>
  (app: App, cookie: string) =>
    request(app).get(path).set('Cookie', cookie).set(headers);
const post =
  (path: string, headers: Record<string, string> = {}) =>
  (app: App, cookie: string) =>
    request(app).post(path).set('Cookie', cookie).set(headers).set(SAME_ORIGIN).type('form').send({ x: '1' });
const FETCHER = { ...FORGED, [NAVIGATION_FETCHER_HEADER]: '1' };

const KINDS: readonly Kind[] = [
  ['document GET', get('/admin/report')],
  ['document HEAD', (app, cookie) => request(app).head('/admin/report').set('Cookie', cookie)],
  ['document POST', post('/admin/report')],
  ['navigation data, forged keep', get('/admin/report', FORGED)],
  ['navigation data, forged keep, odd scope', get('/admin/report', { ...FORGED, [NAVIGATION_SCOPE_HEADER]: 'zz9' })],
  ['in-place POST, forged keep', post('/admin/report', FORGED)],
  ['fetcher GET, forged keep', get('/admin/report', FETCHER)],
  ['fetcher POST, forged keep', post('/admin/report', FETCHER)],
  ['resource GET', get('/admin/export')],
  ['resource GET, forged keep', get('/admin/export', FORGED)],
  ['resource POST', post('/admin/export')],
  ['resource fetcher POST', post('/admin/export', FETCHER)],
  ['resource data GET', get('/admin/export.json')],
  ['resource data GET, forged keep', get('/admin/export.json', FORGED)],
  ['resource data POST', post('/admin/export.json')],
];

describe("a layout's refusal holds for every request inside it, whatever the request says it keeps", () => {
  describe.each([
    ['without a boundary', false],
    ['with a boundary in the guarding layout', true],
  ])('%s', (_case, boundary) => {
    test.each(KINDS)('%s: an anonymous visitor gets 401, a reader 403, and no load or action inside ran', async (_kind, send) => {
      const { app, ran, logs } = guardedSection({ boundary });
      for (const [cookie, status] of [
        ['', 401],
        ['role=reader', 403],
      ] as const) {
        const res = await send(app, cookie);
        expect(res.status).toBe(status);
        expect(res.text ?? '').not.toContain(SECRET);
        expect(JSON.stringify(res.body ?? '')).not.toContain(SECRET);
      }
      expect(ran).toEqual([]);
      expect(errorLines(logs)).toEqual([]);
    });
  });

  test.each(KINDS)('%s: a redirect from the guard redirects, and nothing inside ran', async (_kind, send) => {
    const { app, ran } = guardedSection({ boundary: true });
    const res = await send(app, 'role=gone');
    // A document answers 302 (a post 303); an in-place request 204 with the path to go to.
    expect([204, 302, 303]).toContain(res.status);
    expect(res.headers.location ?? res.headers['x-navigation-redirect']).toBe('/sign-in');
    expect(ran).toEqual([]);
  });

  test.each(KINDS)('%s: an admin gets through, and what ran inside is what that request runs', async (kind, send) => {
    const { app, ran } = guardedSection({ boundary: false });
    const res = await send(app, 'role=admin');
    expect(res.status).toBe(200);
    const expected: Record<string, string[]> = {
      'document POST': ['page action', 'page load'],
      'in-place POST, forged keep': ['page action', 'page load'],
      'fetcher POST, forged keep': ['page action'],
      'resource GET': ['resource load'],
      'resource GET, forged keep': ['resource load'],
      'resource POST': ['resource action'],
      'resource fetcher POST': ['resource action'],
      'resource data GET': ['resource data load'],
      'resource data GET, forged keep': ['resource data load'],
      'resource data POST': ['resource data action'],
    };
    expect(ran).toEqual(expected[kind] ?? ['page load']);
    // What a resource route returns as data reaches the admin, as JSON.
    if (kind.startsWith('resource data')) {
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.body).toEqual(kind.endsWith('POST') ? { saved: SECRET } : { secret: SECRET });
    }
  });
});
