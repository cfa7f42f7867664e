import { APP_NAME } from '../../shared/app-info.ts';
import { Link } from '../../shared/link.tsx';

/** The header every page of the app shows: the site's name and the links between its pages. */
export function SiteHeader() {
  return (
    <header className="app-header">
      <Link href="/" className="app-name">
        {APP_NAME}
      </Link>
      <nav aria-label="Site" className="site-nav">
        <Link href="/guestbook">Guest book</Link> <Link href="/admin">Admin</Link> <Link href="/sign-in">Sign in</Link>
      </nav>
    </header>
  );
}
