import type { Request } from 'express';
import type { Location } from '../../shared/api/location.ts';
import { targetPathAndQuery, urlOnOrigin } from './request-url.ts';

/** Any origin: only the target's path and query are read. */
const ANY_ORIGIN = 'http://localhost';

/**
 * The page's location as the server renders it (`useLocation()`, `<NavLink>`): the request
 * target's path and query read as a browser reads its address (dot segments resolved, the same
 * percent-encoding), so the hydrating page finds the same; no fragment, which browsers never send.
 * The address is parsed when a component first reads it: most pages never do.
 */
export function pageLocation(req: Request): Location {
  return new ServerLocation(req.originalUrl);
}

class ServerLocation implements Location {
  readonly hash = '';
  readonly #target: string;
  #parsed: URL | undefined;

  constructor(target: string) {
    this.#target = target;
  }

  get pathname(): string {
    return this.#url().pathname;
  }

  get search(): string {
    return this.#url().search;
  }

  #url(): URL {
    this.#parsed ??= urlOnOrigin(ANY_ORIGIN, targetPathAndQuery(this.#target));
    return this.#parsed;
  }
}
