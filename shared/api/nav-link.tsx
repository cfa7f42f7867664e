import type { CSSProperties, ReactNode } from 'react';
import { Link, type LinkProps } from './link.tsx';
import { useLocation } from './location.ts';
import { useNavigationState } from './navigation.ts';

/** What a `<NavLink>` tells its `className`, `style` and `children` functions. */
export interface NavLinkRenderProps {
  /** The link's page is the one on the screen. */
  readonly isActive: boolean;
  /** An in-place move to the link's page is under way. */
  readonly isPending: boolean;
}

export interface NavLinkProps extends Omit<LinkProps, 'className' | 'style' | 'children'> {
  /** Classes, or a function of the link's state; a string gets `active` and `pending` added as they hold. */
  readonly className?: string | ((props: NavLinkRenderProps) => string | undefined);
  readonly style?: CSSProperties | ((props: NavLinkRenderProps) => CSSProperties | undefined);
  readonly children?: ReactNode | ((props: NavLinkRenderProps) => ReactNode);
  /** Active on its own path only, not on the paths below it (`/guestbook` and not `/guestbook/3`). */
  readonly end?: boolean;
  /** Tell `/Admin` from `/admin`, which the routes do not (they match either case). */
  readonly caseSensitive?: boolean;
}

/** Any origin: links are compared by path, on this site; a link written as an absolute URL never matches. */
const HERE = 'http://localhost';

/**
 * Whether a location's path is the link's, or (unless `end`) a path below it, as React Router's
 * `<NavLink>` decides: `/guestbook` matches `/guestbook/3` but not `/guestbooks`; `/` only itself.
 */
function matches(path: string, target: string, end: boolean): boolean {
  // A target with a trailing slash looks for the slash it has; one without, for one after it.
  const slash = target !== '/' && target.endsWith('/') ? target.length - 1 : target.length;
  return path === target || (!end && path.startsWith(target) && path.charAt(slash) === '/');
}

/** The path `href` names from the page at `pathname`; undefined for a URL of another site, or none. */
function pathOf(href: string, pathname: string): string | undefined {
  try {
    // Joined as text, so a path that starts with `//` stays a path rather than naming a host.
    const url = new URL(href, `${HERE}${pathname}`);
    return url.origin === HERE ? url.pathname : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A `<Link>` that knows whether its page is the one on the screen (React Router's `<NavLink>`):
 * then it carries `aria-current="page"` and the class `active`; while an in-place move to it is
 * under way, `pending`. Decided from the page's location on the server's first render as in the
 * browser, so the marked link is in the HTML and hydration changes nothing; again after every
 * in-place move, back and forward.
 */
export function NavLink({ className = '', style, children, end = false, caseSensitive = false, href, 'aria-current': current = 'page', ...rest }: NavLinkProps) {
  const { pathname } = useLocation();
  // The address being loaded or posted to: absolute, on this site (client/router.tsx).
  const { location: loading } = useNavigationState();
  const fold = (path: string | undefined) => (caseSensitive ? path : path?.toLowerCase());
  const target = fold(pathOf(href, pathname));
  const next = loading === undefined ? undefined : fold(new URL(loading).pathname);
  const state: NavLinkRenderProps = {
    isActive: target !== undefined && matches(fold(pathname) ?? '', target, end),
    isPending: target !== undefined && next !== undefined && matches(next, target, end),
  };
  const classes =
    typeof className === 'function'
      ? className(state)
      : [className, state.isActive ? 'active' : '', state.isPending ? 'pending' : ''].filter((name) => name !== '').join(' ') || undefined;
  return (
    <Link {...rest} href={href} aria-current={state.isActive ? current : undefined} className={classes} style={typeof style === 'function' ? style(state) : style}>
      {typeof children === 'function' ? children(state) : children}
    </Link>
  );
}
