import type { Request } from 'express';
import type { Location } from '../../shared/location.ts';
import { targetPathAndQuery, urlOnOrigin } from './request-url.ts';

/** Any origin: only the target's path and query are read. */
const ANY_ORIGIN = 'http://localhost';

/**
 * The page's location as the server renders it (`useLocation()`, `<NavLink>`): the request
 * target's path and query read as a browser reads its address (dot segments resolved, the same
 * percent-encoding), so the hydrating page finds the same; no fragment, which browsers never send.
 */
export function pageLocation(req: Request): Location {
  const { pathname, search } = urlOnOrigin(ANY_ORIGIN, targetPathAndQuery(req.originalUrl));
  return { pathname, search, hash: '' };
}
