import type { Request } from 'express';
import { requestUrl } from '../render/request-url.ts';

/**
 * A browser reads a location that begins with two slashes, or any mix of slashes and
 * backslashes, as the start of another host (`//evil.example/x`): a scheme-relative URL.
 */
const OTHER_HOST = /^[\\/]{2}/;

/**
 * Where `redirect(location)` may send the browser: a path on the request's own origin (the
 * public origin when configured), as a path with its query and fragment. Refused, with an
 * error, which ends in the 500 page with its digest (docs/building-an-app.md, "Forms and
 * actions"), so an action cannot become an open redirect:
 * - anything that resolves to another origin (`https://evil.example/`, `//evil.example`,
 *   `/\evil.example`, `javascript:`);
 * - a same-origin URL whose path begins with `//` once resolved (`/.//evil.example`,
 *   `/x/..//evil.example`, `/%2e//evil.example`, `http://this-host//evil.example`): sent as a
 *   path alone, it would name another host. Refused rather than collapsed to one slash, as
 *   `//evil.example` itself is: no page of the app lives there, and the log shows the attempt.
 */
export function sameOriginLocation(req: Request, location: string, publicOrigin: URL | undefined): string {
  const here = requestUrl(req, publicOrigin);
  let target: URL;
  try {
    target = new URL(location, here);
  } catch {
    throw new Error(`redirect() refused: ${JSON.stringify(location)} is not a URL`);
  }
  if (target.origin !== here.origin) {
    throw new Error(`redirect() refused: ${target.origin} is not this site's origin (${here.origin}); an action redirects within its own site only`);
  }
  // The URL parser has turned backslashes into slashes and resolved `.`, `..` and `%2e` in the
  // path already; the test on both characters holds whatever it leaves.
  if (OTHER_HOST.test(target.pathname)) {
    throw new Error(`redirect() refused: ${JSON.stringify(location)} resolves to the path ${JSON.stringify(target.pathname)}, which a browser reads as another host`);
  }
  return `${target.pathname}${target.search}${target.hash}`;
}
