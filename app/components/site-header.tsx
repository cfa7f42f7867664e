import { SITE_NAME } from '../site.ts';
import { Form, Link } from 'react-stream-shell';
import type { Visitor } from '../context.ts';

/**
 * The header every page of the app shows (the root layout's): the site's name, the links between
 * its pages, who is signed in, and a way out on every page (the sign-in page's action).
 */
export function SiteHeader({ visitor }: { readonly visitor: Visitor | null }) {
  return (
    <header className="app-header">
      <Link href="/" className="app-name">
        {SITE_NAME}
      </Link>
      <nav aria-label="Site" className="site-nav">
        <Link href="/guestbook">Guest book</Link> <Link href="/admin">Admin</Link>{' '}
        {visitor === null ? (
          <Link href="/sign-in">Sign in</Link>
        ) : (
          <>
            <span className="visitor">Signed in as {visitor.name}</span>{' '}
            <Form method="post" action="/sign-in" className="sign-out">
              <button type="submit" name="intent" value="sign-out">
                Sign out
              </button>
            </Form>
          </>
        )}
      </nav>
    </header>
  );
}
