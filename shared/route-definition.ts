import type { ReactNode } from 'react';
import type { PageHead } from './head.ts';

export type RouteParams = Readonly<Record<string, string>>;

/**
 * The app's own per-request value (a session, a database handle), made by
 * `createApp({ getLoadContext })`. An app states its shape once by declaration merging:
 * `declare module '.../shared/route-definition.ts' { interface AppLoadContext { session?: Session } }`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: empty until an app fills it by declaration merging, which a type alias cannot take
export interface AppLoadContext {}

/** The request as a page sees it: the parts of a Fetch `Request` that a render can use. */
export interface PageRequest {
  readonly method: string;
  /** Absolute: from the configured public origin, else the host Express resolved. */
  readonly url: string;
  /** Fetch semantics: `get(name)` is case-insensitive; made on first read. */
  readonly headers: Headers;
}

/** What a route's `load` receives. */
export interface LoadContext {
  readonly params: RouteParams;
  readonly searchParams: URLSearchParams;
  readonly request: PageRequest;
  /** The request's cookies, parsed; read-only. Never logged. */
  readonly cookies: Readonly<Record<string, string | undefined>>;
  /** What `getLoadContext` returned for this request; `{}` without one. */
  readonly context: AppLoadContext;
  /** Aborted when the client goes away or the render times out. */
  readonly signal: AbortSignal;
  readonly requestId: string;
}

/**
 * What a route's `action` receives (docs/building-pages.md): what `load` receives, plus the
 * posted form (or JSON object), parsed. The form token field (`_csrf`) is not in it.
 */
export type ActionContext = LoadContext & {
  readonly body: Readonly<Record<string, unknown>>;
};

/**
 * What an action may return: `invalid(errors, values)` shows the page again with 422; any other
 * value shows it again with 200 and reaches the page as `actionData`. `redirect(location)`
 * (shared/action-helpers.ts) throws instead of returning, and answers 303.
 */
export type ActionResult = unknown;

export interface PageProps<Data = unknown> {
  readonly data: Data;
  readonly params: RouteParams;
  /** What the route's action returned, when the page is shown again after a form post. */
  readonly actionData?: unknown;
}

/**
 * Method-style signatures are checked bivariantly, so a route table typed `RouteDefinition[]`
 * can hold routes whose data types differ (the idiom @types/react uses for event handlers).
 */
type Bivariant<Fn extends (...args: never[]) => unknown> = {
  bivarianceHack(...args: Parameters<Fn>): ReturnType<Fn>;
}['bivarianceHack'];

export type PageComponent<Data = unknown> = Bivariant<(props: PageProps<Data>) => ReactNode>;

/** A page's head: fixed, or worked out from its data (deferred values are still promises). */
export type HeadDefinition<Data = unknown> = PageHead | Bivariant<(data: Data, params: RouteParams) => PageHead>;

/**
 * A page module under `app/pages/`: the component as its default export, and beside it
 * what the server needs. The client build removes `load`, `action` and `head` and what only
 * they use before bundling the module, so none of it ships (docs/rendering.md).
 */
export interface PageModule<Data = unknown> {
  readonly default: PageComponent<Data>;
  readonly load?: (context: LoadContext) => Data | Promise<Data>;
  readonly head?: HeadDefinition<Data>;
  /** Runs on the server for a POST to the route, after the cross-site check (docs/building-pages.md). */
  readonly action?: (context: ActionContext) => ActionResult | Promise<ActionResult>;
}

export interface RouteDefinition<Data = unknown> {
  /** An Express 5 path pattern, e.g. `/users/:id`. Also the `route` field in logs. */
  readonly path: string;
  readonly component: PageComponent<Data>;
  /** Runs on the server before the shell; promises inside its result stream (docs/building-pages.md). */
  readonly load?: (context: LoadContext) => Data | Promise<Data>;
  readonly head?: HeadDefinition<Data>;
  /** Answers a POST to the route; without one the route answers 405 to it (docs/building-pages.md). */
  readonly action?: (context: ActionContext) => ActionResult | Promise<ActionResult>;
  /**
   * The page module this route came from (`route()` sets it): the build bundles it to hydrate
   * the route. A route without one renders on the server only and ships no JavaScript.
   */
  readonly page?: PageModule<Data>;
}

/** A route of the table: a path and the page module it serves, named nowhere else. */
export function route<Data>(path: string, page: PageModule<Data>): RouteDefinition<Data> {
  const { default: component, load, head, action } = page;
  return {
    path,
    component,
    page,
    ...(load === undefined ? {} : { load }),
    ...(head === undefined ? {} : { head }),
    ...(action === undefined ? {} : { action }),
  };
}

/** A server-only route written inline (tests build apps this way); ties `load` to `data`. */
export function defineRoute<Data>(route: RouteDefinition<Data>): RouteDefinition<Data> {
  return route;
}
