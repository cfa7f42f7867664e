import { layout, route, type RouteTableEntry } from 'react-stream-shell';
import * as entries from './api/entries.ts';
import * as guestbookLayout from './layouts/guestbook.tsx';
import * as root from './layouts/root.tsx';
import * as admin from './pages/admin.tsx';
import * as entry from './pages/entry.tsx';
import * as guestbook from './pages/guestbook.tsx';
import * as home from './pages/home.tsx';
import * as notFound from './pages/not-found.tsx';
import * as signIn from './pages/sign-in.tsx';
import * as signOut from './api/sign-out.ts';

/**
 * The app's pages, inside their layouts. To add one: write `app/pages/<name>.tsx` (default
 * export: the page component; `load`, `action` and `head` beside it) and add
 * `route('/path', name)` here, inside the layout it belongs to. The build reads this table
 * without running it: keep it `route()` and `layout()` calls on modules imported with
 * `import * as` (docs/building-an-app.md). A module without a default export is a resource route.
 */
export const routes: readonly RouteTableEntry[] = [
  layout(
    root,
    [
      route('/', home),
      layout(guestbookLayout, [route('/guestbook', guestbook), route('/guestbook/:id', entry)], { id: 'guestbook' }),
      route('/sign-in', signIn),
      route('/admin', admin),
    ],
    // Any address no route has: the not-found page inside the root layout, with 404.
    { id: 'root', notFound },
  ),
  route('/api/entries', entries),
  route('/sign-out', signOut),
];
