import type { LayoutHead } from '../../../../shared/api/head.ts';
import { useLocation } from '../../../../shared/api/location.ts';
import { NavLink } from '../../../../shared/api/nav-link.tsx';
import { Outlet } from '../../../../shared/api/route-hooks.tsx';

export const head: LayoutHead = { titleTemplate: '%s · Links' };

/**
 * A menu of NavLinks around its pages (docs/navigation.md#links-that-mark-the-current-page):
 * the section's own page only on itself (`end`), a page that is also active on the pages below
 * it, and one styled by functions of its state; the location as the routes see it.
 */
export default function Menu() {
  const { pathname, search } = useLocation();
  return (
    <div>
      <header>
        <nav aria-label="Links">
          <NavLink id="nl-index" href="/nav-links" end>
            Index
          </NavLink>{' '}
          <NavLink id="nl-one" href="/nav-links/one">
            One
          </NavLink>{' '}
          <NavLink
            id="nl-two"
            href="/nav-links/two"
            className={({ isActive, isPending }) => (isPending ? 'two-pending' : isActive ? 'two-here' : 'two-away')}
            style={({ isActive }) => (isActive ? { fontWeight: 'bold' } : undefined)}
          >
            {({ isActive }) => (isActive ? 'Two (here)' : 'Two')}
          </NavLink>
        </nav>
        <p id="nl-location">
          {pathname}
          {search}
        </p>
      </header>
      <Outlet />
    </div>
  );
}
