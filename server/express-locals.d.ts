import type { AppLoadContext } from '../shared/route-definition.ts';

// Per-request state, typed by declaration merging (`req.id` and `req.log`: server/observability/http-logger.ts).
declare global {
  namespace Express {
    interface Locals {
      /** Fresh for every request; given to helmet's CSP and to React's `nonce` option. */
      cspNonce: string;
      /** The matched route's path pattern, for logs; unset when no page route matched. */
      routePattern?: string;
      /** Set by a route's action to show the page again: what the action returned, and the status and headers it asked for. */
      actionResult?: { readonly status: number | undefined; readonly data: unknown; readonly headers: HeadersInit | undefined };
      /** What the app's `getLoadContext` made for this request, kept by an action for the page shown after it (app-context.ts). */
      appContext?: AppLoadContext;
      /** A non-object thrown and logged during this request, so it is logged only once. */
      loggedPrimitive?: { readonly error: unknown; readonly digest: string };
    }
  }
}
