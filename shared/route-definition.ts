import type { ReactNode } from 'react';
import type { PageHead } from './head.ts';

export type RouteParams = Readonly<Record<string, string>>;

/**
 * The app's own per-request value (a session, a database handle), made by
 * `createApp({ getLoadContext })`. An app states its shape once by declaration merging:
 * `declare module '.../shared/route-definition.ts' { interface AppLoadContext { session?: Session } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
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

export interface PageProps<Data = unknown> {
  readonly data: Data;
  readonly params: RouteParams;
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
 * A page module under `shared/pages/`: the component as its default export, and beside it
 * what the server needs. The browser's bundle imports only the default export, so `load`
 * and what it imports never ship (esbuild drops exports nobody imports).
 */
export interface PageModule<Data = unknown> {
  readonly default: PageComponent<Data>;
  readonly load?: (context: LoadContext) => Data | Promise<Data>;
  readonly head?: HeadDefinition<Data>;
}

export interface RouteDefinition<Data = unknown> {
  /** An Express 5 path pattern, e.g. `/users/:id`. Also the `route` field in logs. */
  readonly path: string;
  readonly component: PageComponent<Data>;
  /** Runs on the server before the shell; promises inside its result stream (docs/building-pages.md). */
  readonly load?: (context: LoadContext) => Data | Promise<Data>;
  readonly head?: HeadDefinition<Data>;
  /**
   * The page module this route came from (`route()` sets it): the build bundles it to hydrate
   * the route. A route without one renders on the server only and ships no JavaScript.
   */
  readonly page?: PageModule<Data>;
}

/** A route of the table: a path and the page module it serves, named nowhere else. */
export function route<Data>(path: string, page: PageModule<Data>): RouteDefinition<Data> {
  const { default: component, load, head } = page;
  return { path, component, page, ...(load === undefined ? {} : { load }), ...(head === undefined ? {} : { head }) };
}

/** A server-only route written inline (tests build apps this way); ties `load` to `data`. */
export function defineRoute<Data>(route: RouteDefinition<Data>): RouteDefinition<Data> {
  return route;
}
