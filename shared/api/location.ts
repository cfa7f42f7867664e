import { use } from 'react';
import { RouteValuesContext } from './route-hooks.tsx';

/** Where the page on the screen is: the address's path, query (`?…`, or empty) and fragment (`#…`, or empty), as in `window.location`. */
export interface Location {
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
}

/**
 * The location of the page on the screen (React Router's `useLocation()`), which the route tree
 * gives every route (shared/views/route-tree.tsx): the request's path and query on the server (no
 * fragment: browsers never send it), the view's address in the browser, so what hydration
 * renders first is what the server rendered. It changes with every in-place move, back and forward.
 */
export function useLocation(): Location {
  const values = use(RouteValuesContext);
  if (values === undefined) throw new Error('useLocation() is called outside a page or a layout: only they and what they render have a location');
  return values.location;
}
