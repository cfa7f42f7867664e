import { route, defineRoute, flattenRoutes, layout, type RouteDefinition, type RouteTableEntry } from '../../shared/api/route-definition.ts';
import { forbidden, notFound, unauthorized } from '../../shared/api/status-helpers.ts';
import * as boundaryThrow from './fixture-pages/boundary-throw.tsx';
import * as clientThrow from './fixture-pages/client-throw.tsx';
import * as awaitPage from './fixture-pages/await.tsx';
import type { AwaitData } from './fixture-pages/await.tsx';
import * as deferred from './fixture-pages/deferred.tsx';
import type { DeferredData } from './fixture-pages/deferred.tsx';
import * as delayed from './fixture-pages/delayed.tsx';
import * as form from './fixture-pages/form.tsx';
import * as formDone from './fixture-pages/form-done.tsx';
import * as home from './fixture-pages/home.tsx';
import * as lateStatus from './fixture-pages/late-status.tsx';
import * as navA from './fixture-pages/nav-a.tsx';
import * as navB from './fixture-pages/nav-b.tsx';
import * as nextForm from './fixture-pages/next-form.tsx';
import * as postOnce from './fixture-pages/post-once.tsx';
import * as postOnceSaved from './fixture-pages/post-once-saved.tsx';
import * as badFragment from './fixture-pages/bad-fragment.tsx';
import * as loadRedirect from './fixture-pages/load-redirect.tsx';
import * as loadRedirectResource from './fixture-pages/load-redirect-resource.ts';
import * as plain from './fixture-pages/plain.tsx';
import * as styled from './fixture-pages/styled.tsx';
import * as layoutBroken from './fixture-pages/layouts/broken.tsx';
import * as layoutGuests from './fixture-pages/layouts/guests.tsx';
import { loadCounts } from './fixture-pages/layouts/load-counts.ts';
import * as layoutOne from './fixture-pages/layouts/one.tsx';
import * as layoutSection from './fixture-pages/layouts/section.tsx';
import * as layoutShell from './fixture-pages/layouts/shell.tsx';
import * as layoutTwo from './fixture-pages/layouts/two.tsx';
import * as members from './fixture-pages/members/members.tsx';
import * as membersAccount from './fixture-pages/members/account.tsx';
import * as membersBoard from './fixture-pages/members/board.tsx';
import * as membersBoardPage from './fixture-pages/members/board-page.tsx';
import * as membersNotice from './fixture-pages/members/notice.tsx';
import * as membersPrivate from './fixture-pages/members/private.tsx';
import * as membersSignIn from './fixture-pages/members/sign-in.tsx';
import * as membersSignedOut from './fixture-pages/members/signed-out.tsx';
import * as membersSignOut from './fixture-pages/members/sign-out.ts';
import * as membersExport from './fixture-pages/members/export.ts';
import * as notFoundFrame from './fixture-pages/not-found/frame.tsx';
import * as notFoundHome from './fixture-pages/not-found/home.tsx';
import * as notFoundMissing from './fixture-pages/not-found/missing.tsx';
import * as membersLeave from './fixture-pages/members/leave.tsx';
import * as navLinksMenu from './fixture-pages/nav-links/menu.tsx';
import * as navLinksIndex from './fixture-pages/nav-links/index.tsx';
import * as navLinksOne from './fixture-pages/nav-links/one.tsx';
import * as navLinksDeep from './fixture-pages/nav-links/deep.tsx';
import * as navLinksTwo from './fixture-pages/nav-links/two.tsx';
import type { NavBData } from './fixture-pages/nav-b.tsx';
import type { LateStatusData } from './fixture-pages/late-status.tsx';
import { loadSlowData, SlowPage } from './slow-page.tsx';
import { after } from './settle-after.ts';

function throwOnServer(): never {
  throw new Error('fixture: thrown on the server');
}

/**
 * The framework's own pages for its tests, never the app's: a home page at `/` and the fixture
 * routes of the unit, browser, process and proxy tests, for the fixture server (fixture-server.tsx) and the browser tests' client build, which bundles the
 * page modules this table names.
 */
const table: readonly RouteTableEntry[] = [
  route('/', home),
  // The browser tests' pages, with their modules under test/support/fixture-pages/.
  { ...route('/fixtures/delayed', delayed), load: () => ({ delayMs: Number(process.env.FIXTURE_DELAY_MS ?? 400) }) },
  route('/fixtures/client-throw', clientThrow),
  {
    ...route('/fixtures/deferred', deferred),
    load: (): DeferredData => ({
      fast: 'FAST-VALUE',
      slow: after(300, () => ({ text: 'SLOW-VALUE', at: new Date(Date.UTC(2026, 10, 23)) })),
      broken: after(100, (): string => {
        throw new Error('fixture: deferred value rejected');
      }),
    }),
  },
  {
    ...route('/fixtures/await', awaitPage),
    load: (): AwaitData => ({
      kept: after(50, () => 'KEPT-VALUE'),
      broken: after(100, (): string => {
        throw new Error('fixture: awaited value rejected');
      }),
    }),
  },
  { ...route('/fixtures/boundary-throw', boundaryThrow), load: () => ({ kind: 'boundary' as const }) },
  // A form with an action (docs/building-an-app.md): 422 with field errors, or 303 to /fixtures/form/done.
  route('/fixtures/form', form),
  route('/fixtures/form/done', formDone),
  // An action that redirects to `?next=`; a post whose answer needs another page's code; a fragment that does not decode.
  route('/fixtures/login', nextForm),
  route('/fixtures/post-once/:key', postOnce),
  route('/fixtures/post-once/:key/save', postOnceSaved),
  route('/fixtures/fragment/:which', badFragment),
  // A load that redirects `?hops=` times, in place, or to a resource route (docs/responses.md).
  route('/fixtures/load-redirect', loadRedirect),
  route('/fixtures/load-redirect/resource', loadRedirectResource),
  // In-place navigation: two pages with links, one of them slow on request, one whose load fails.
  route('/nav/a', navA),
  {
    ...route('/nav/b', navB),
    load: async ({ searchParams }): Promise<NavBData> => {
      await after(Number(searchParams.get('delay') ?? 0), () => undefined);
      return { servedAt: new Date().toISOString(), lang: searchParams.get('lang') ?? 'en', rtl: searchParams.get('dir') === 'rtl' };
    },
  },
  { ...route('/nav/broken', navB), load: throwOnServer },
  // Stylesheets: a page without one of its own links in place to a page with one.
  route('/styles/plain', plain),
  route('/styles/styled', styled),
  { ...route('/late/server', lateStatus), load: (): LateStatusData => ({ where: 'server' }) },
  { ...route('/late/both', lateStatus), load: (): LateStatusData => ({ where: 'both' }) },
  // A load that throws: the 500 page. The proxy tests' address (the page names the host, which
  // shows whose forwarded headers were believed) and the browser tests' address.
  { path: '/fixtures/throw', component: () => null, load: throwOnServer },
  { path: '/fixtures/server-throw', component: () => null, load: throwOnServer },
  { path: '/fixtures/unauthorized', component: () => null, load: () => unauthorized() },
  { path: '/fixtures/forbidden', component: () => null, load: () => forbidden() },
  // docs/status-pages.md: the helpers work during the shell's render as well as in `load`.
  { path: '/fixtures/not-found-in-render', component: () => notFound() },
  // Server-only (no client bundle): the shell at once, the boundary after `?ms=`.
  defineRoute({ path: '/fixtures/slow', head: { title: 'Slow' }, component: SlowPage, load: loadSlowData }),
  // Layouts (docs/building-an-app.md#layouts): a shell around a section around four pages (guests: the fetchers'); the
  // section's ErrorBoundary stands for the page whose load fails. How often each layout loaded.
  layout(
    layoutShell,
    [
      layout(layoutSection, [route('/layouts/one', layoutOne), route('/layouts/two', layoutTwo), route('/layouts/broken', layoutBroken), route('/layouts/guests', layoutGuests)], {
        id: 'section',
      }),
    ],
    {
      id: 'shell',
    },
  ),
  defineRoute({ path: '/layouts/load-counts', load: () => Response.json(loadCounts()) }),
  // Sessions and the router's memory of views (docs/navigation.md#back-and-forward): a sign-in, a
  // layout that refuses anyone signed out around a private page, a page that refuses them itself,
  // a sign-out, and a public page inside a layout whose data is no-store.
  route('/members/sign-in', membersSignIn),
  route('/members/signed-out', membersSignedOut),
  route('/members/account', membersAccount),
  layout(members, [route('/members/private', membersPrivate)], { id: 'members' }),
  layout(membersBoard, [route('/members/notice', membersNotice), route('/members/board', membersBoardPage)], { id: 'board' }),
  // Forms posted to resource routes (docs/navigation.md): a sign-out that redirects, an export answered with JSON.
  route('/members/leave', membersLeave),
  route('/members/sign-out', membersSignOut),
  route('/members/export', membersExport),
  // NavLinks in a layout's menu (docs/navigation.md#links-that-mark-the-current-page).
  layout(
    navLinksMenu,
    [route('/nav-links', navLinksIndex), route('/nav-links/one', navLinksOne), route('/nav-links/one/deep', navLinksDeep), route('/nav-links/two', navLinksTwo)],
    { id: 'nav-links' },
  ),
];

/** Each route with the layouts around it, as the server mounts them: what the tests look routes up in. */
export const routes: readonly RouteDefinition[] = flattenRoutes(table);

/**
 * A layout with a not-found page (docs/status-pages.md#a-404-inside-the-apps-layouts), which
 * stands for every unknown address: the fixture server adds it with FIXTURE_NOT_FOUND=1 only, so
 * every other test keeps the plain 404. The client build bundles it either way.
 */
export const notFoundTable: readonly RouteTableEntry[] = [layout(notFoundFrame, [route('/not-found/home', notFoundHome)], { id: 'not-found', notFound: notFoundMissing })];
