import type { ReactNode } from 'react';

export type RouteParams = Readonly<Record<string, string>>;

/** What a route's `load` receives: only what is safe to depend on from shared code. */
export interface LoadContext {
  readonly params: RouteParams;
  readonly searchParams: URLSearchParams;
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

export interface RouteDefinition<Data = unknown> {
  /** An Express 5 path pattern, e.g. `/users/:id`. Also the `route` field in logs. */
  readonly path: string;
  readonly component: PageComponent<Data>;
  readonly title?: string | Bivariant<(data: Data) => string>;
  /** Runs on the server before rendering starts; its result is embedded for hydration. */
  readonly load?: (context: LoadContext) => Data | Promise<Data>;
  /**
   * The page module under `shared/pages/` (file name without extension) whose client bundle
   * hydrates this route. A route without it is rendered on the server only and ships no
   * JavaScript at all.
   */
  readonly page?: string;
}

/** Ties a route's `load` result to its component's `data` prop at compile time. */
export function defineRoute<Data>(route: RouteDefinition<Data>): RouteDefinition<Data> {
  return route;
}
