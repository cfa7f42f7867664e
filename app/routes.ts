import { route, type RouteDefinition } from '../shared/route-definition.ts';
import * as entries from './api/entries.ts';
import * as admin from './pages/admin.tsx';
import * as entry from './pages/entry.tsx';
import * as guestbook from './pages/guestbook.tsx';
import * as home from './pages/home.tsx';
import * as signIn from './pages/sign-in.tsx';

/**
 * The app's pages. To add one: write `app/pages/<name>.tsx` (default export: the page component;
 * `load`, `action` and `head` beside it) and add `route('/path', name)` here. The build reads
 * this table without running it: keep it a list of `route()` calls on modules imported with
 * `import * as` (docs/building-an-app.md). A module without a default export is a resource route.
 */
export const routes: readonly RouteDefinition[] = [
  route('/', home),
  route('/guestbook', guestbook),
  route('/guestbook/:id', entry),
  route('/sign-in', signIn),
  route('/admin', admin),
  route('/api/entries', entries),
];
