// Per-request state, typed by declaration merging (`req.id` and `req.log`: server/observability/http-logger.ts).
declare global {
  namespace Express {
    interface Locals {
      /** Fresh for every request; given to helmet's CSP and to React's `nonce` option. */
      cspNonce: string;
      /** The matched route's path pattern, for logs; unset when no page route matched. */
      routePattern?: string;
      /** A non-object thrown and logged during this request, so it is logged only once. */
      loggedPrimitive?: { readonly error: unknown; readonly digest: string };
    }
  }
}
