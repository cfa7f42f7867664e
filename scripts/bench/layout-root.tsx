import { Link } from '../../shared/api/link.tsx';
import { Outlet, useLoaderData } from '../../shared/api/route-hooks.tsx';
import { siteData, type SiteData } from './layouts-fixture.ts';

/** The site's name and navigation, for every page inside; synchronous, as most layouts' are. */
export function load(): SiteData {
  return siteData();
}

/** The outer layout of the bench's layouts page: a small header and navigation; flat-page.tsx writes the same markup inline. */
export default function RootLayout() {
  const site = useLoaderData<typeof load>();
  return (
    <div className="bench-site">
      <header className="bench-header">
        <p className="bench-name">{site.name}</p>
        <nav aria-label="Site">
          <ul>
            {site.links.map((link) => (
              <li key={link.href}>
                <Link href={link.href}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <Outlet />
    </div>
  );
}
