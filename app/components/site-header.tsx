import { SITE_NAME } from '../site.ts';
import { Form, Link, NavLink } from 'react-stream-shell';
import type { Visitor } from '../context.ts';

/**
 * The header every page of the app shows (the root layout's): the site's name, the links between
 * its pages (the current one marked, `aria-current="page"`), who is signed in, and a way out on
 * every page (the sign-out resource route, app/api/sign-out.ts).
 */
export function SiteHeader({ visitor }: { readonly visitor: Visitor | null }) {
  return (
    <header className="app-header">
      <Link href="/" className="app-name">
        {SITE_NAME}
      </Link>
      <nav aria-label="Site" className="site-nav">
        <NavLink href="/guestbook">Guest book</NavLink> <NavLink href="/admin">Admin</NavLink>{' '}
        {visitor === null ? (
          <NavLink href="/sign-in">Sign in</NavLink>
        ) : (
          <>
            <span className="visitor">Signed in as {visitor.name}</span>{' '}
            <Form method="post" action="/sign-out" className="sign-out">
              <button type="submit">Sign out</button>
            </Form>
          </>
        )}
      </nav>
    </header>
  );
}
