import type { ComponentType, ReactNode } from 'react';
import type { LayoutHead, PageHead } from './head.ts';
import type { DataWithResponseInit } from './answers.ts';

export type RouteParams = Readonly<Record<string, string>>;

/**
 * The app's own per-request value (a session, a database handle), made by
 * `createApp({ getLoadContext })`. An app states its shape once by declaration merging:
 * `declare module 'react-stream-shell' { interface AppLoadContext { session?: Session } }`.
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

/** What a route's `load` receives; `Params`, its path parameters, as its module's `Route.LoadContext` types them (docs/building-an-app.md#typed-path-parameters). */
export interface LoadContext<Params = RouteParams> {
  readonly params: Params;
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
 * What a route's `action` receives (docs/building-an-app.md): what `load` receives, plus the
 * posted form (or JSON object), parsed. The form token field (`_csrf`) is not in it.
 */
export type ActionContext<Params = RouteParams> = LoadContext<Params> & {
  readonly body: Readonly<Record<string, unknown>>;
};

/**
 * What an action may return: `invalid(errors, values)` shows the page again with 422;
 * `data(value, init)` (shared/api/answers.ts) shows it with `init`'s status and headers; any
 * other value shows it again with 200 and reaches the page as `actionData`. `redirect(location)`
 * throws instead of returning, and answers 303 (docs/responses.md).
 */
export type ActionResult = unknown;

/** What a page's `load` returns: its data, or `data(value, init)` with a status and headers for the answer (docs/responses.md). */
export type LoadResult<Data> = Data | DataWithResponseInit<Data>;

/** Each result out of `data()`: a conditional type over a type parameter, so it is applied to each member of a union. */
type OutOfData<Result> = Result extends DataWithResponseInit<infer Data> ? Data : Result;

/**
 * The data a page gets from a `load` function: what it returns, awaited, out of `data()`, for
 * each thing it may return (`data(…, 404)` on one branch, plain data on another).
 * `PageProps<LoadedData<typeof load>>`.
 */
export type LoadedData<Load extends (...args: never[]) => unknown> = OutOfData<Awaited<ReturnType<Load>>>;

export interface PageProps<Data = unknown, Params = RouteParams> {
  readonly data: Data;
  readonly params: Params;
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
 * The head while the module's `ErrorBoundary` shows (`Book not found` for a 404 its `load`
 * threw), from what `useRouteError()` gives the boundary. Inside the layouts' heads, as a
 * page's; `noindex` unless it says otherwise. Default: the status's title (`404: Not Found`).
 */
export type ErrorHead = Bivariant<(error: unknown) => PageHead>;

/**
 * A page module under `app/pages/`: the component as its default export, and beside it
 * what the server needs. The client build removes `load`, `action` and `head` and what only
 * they use before bundling the module, so none of it ships (docs/rendering.md).
 */
export interface PageModule<Data = unknown> {
  readonly default: PageComponent<Data>;
  // Bivariant: a module's load may take the narrower `Route.LoadContext` its paths give it.
  readonly load?: Bivariant<(context: LoadContext) => LoadResult<Data> | Promise<LoadResult<Data>>>;
  readonly head?: HeadDefinition<Data>;
  /** Runs on the server for a POST to the route, after the cross-site check (docs/building-an-app.md). */
  readonly action?: Bivariant<(context: ActionContext) => ActionResult | Promise<ActionResult>>;
  /** Shown in the page's place, inside its layouts, when its `load` or render fails (`useRouteError()` says what). */
  readonly ErrorBoundary?: ComponentType;
  /** The head while its `ErrorBoundary` shows; runs on the server only. */
  readonly errorHead?: ErrorHead;
}

/**
 * A layout module (docs/building-an-app.md#layouts): its default export renders what the
 * routes inside it share (a header, a section's navigation) around `<Outlet />`, where the page
 * goes. Beside it, like a page's: `load` (run in parallel with the page's), fixed `head`
 * defaults, and an `ErrorBoundary` for the routes inside it that have none of their own.
 */
export interface LayoutModule<Data = unknown> {
  readonly default: PageComponent<Data>;
  readonly load?: Bivariant<(context: LoadContext) => LoadResult<Data> | Promise<LoadResult<Data>>>;
  readonly head?: LayoutHead;
  readonly ErrorBoundary?: ComponentType;
  /** The head while its `ErrorBoundary` shows; runs on the server only. */
  readonly errorHead?: ErrorHead;
  /** Whether the layout's data loads again on a navigation or a revalidation (React Router's); runs in the browser. */
  readonly shouldRevalidate?: ShouldRevalidate;
}

/**
 * What a layout's `shouldRevalidate` is asked, in the browser, before a request for page data
 * (docs/building-an-app.md#when-a-layout-loads-again): where from, where to, the post that
 * caused it, and what the runtime would do by itself.
 */
export interface ShouldRevalidateArgs {
  readonly currentUrl: URL;
  readonly nextUrl: URL;
  /** The post this revalidation follows (a fetcher's, or a form's whose action redirected): its fields, where and how it went, and for a fetcher what its action returned. */
  readonly formMethod?: 'POST' | undefined;
  readonly formAction?: string | undefined;
  readonly formData?: FormData | undefined;
  readonly actionResult?: unknown;
  /** The runtime's own answer: true after a post, on the same address and on a new query; false when only the path changes. */
  readonly defaultShouldRevalidate: boolean;
}

/** True loads the layout's data again; false keeps what the browser shows. */
export type ShouldRevalidate = (args: ShouldRevalidateArgs) => boolean;

/** A layout of the route table: the module, and the id `useRouteLoaderData(id)` names it by. */
export interface LayoutDefinition<Data = unknown> {
  readonly id: string;
  readonly component: PageComponent<Data>;
  readonly load?: (context: LoadContext) => LoadResult<Data> | Promise<LoadResult<Data>>;
  readonly head?: LayoutHead;
  readonly ErrorBoundary?: ComponentType;
  readonly errorHead?: ErrorHead;
}

/**
 * What a resource route's `load` or `action` answers with (docs/responses.md#resource-routes): a
 * Fetch `Response`, sent as it is; a string, as `new Response(string)` would send it (text); or
 * data, `data(value, init)` of it, as `Response.json(value, init)` would (JSON). Anything but
 * `undefined`, which is a `load` that forgot to return; which objects count as data is decided
 * as the answer is made (a `Map` or a class's instance is refused, JSON would write it as `{}`).
 */
export type ResourceAnswer = object | string | number | boolean | null;

/**
 * A module under `app/` with no default export: a resource route (docs/responses.md), whose
 * `load` answers GET and HEAD, and whose `action` answers POST, each with a `ResourceAnswer`.
 */
export type ResourceModule = { readonly default?: undefined } & (
  | {
      readonly load: Bivariant<(context: LoadContext) => ResourceAnswer | Promise<ResourceAnswer>>;
      readonly action?: Bivariant<(context: ActionContext) => ResourceAnswer | Promise<ResourceAnswer>>;
    }
  // An action alone (a webhook, a POST endpoint): GET answers 405 with `Allow: POST`.
  | { readonly load?: undefined; readonly action: Bivariant<(context: ActionContext) => ResourceAnswer | Promise<ResourceAnswer>> }
);

/** A route that renders a page. */
export interface PageRouteDefinition<Data = unknown> {
  /** An Express 5 path pattern, e.g. `/users/:id`. Also the `route` field in logs. */
  readonly path: string;
  readonly component: PageComponent<Data>;
  /** Runs on the server before the shell; promises inside its result stream (docs/building-an-app.md). */
  readonly load?: (context: LoadContext) => LoadResult<Data> | Promise<LoadResult<Data>>;
  readonly head?: HeadDefinition<Data>;
  /** Answers a POST to the route; without one the route answers 405 to it (docs/building-an-app.md). */
  readonly action?: (context: ActionContext) => ActionResult | Promise<ActionResult>;
  /**
   * The page module this route came from (`route()` sets it): the build bundles it to hydrate
   * the route. A route without one renders on the server only and ships no JavaScript.
   */
  readonly page?: PageModule<Data>;
  /** Shown in the page's place, inside its layouts, when its `load` or render fails. */
  readonly ErrorBoundary?: ComponentType;
  /** The head while its `ErrorBoundary` shows (ErrorHead). */
  readonly errorHead?: ErrorHead;
  /** The layouts around the page, outermost first (`layout()` in the route table). */
  readonly layouts?: readonly LayoutDefinition[];
}

/**
 * A route with no component (docs/responses.md): its `load` answers GET and HEAD with the
 * `Response` it returns (JSON, text, a file's stream), its `action`, if any, answers POST the
 * same way. It ships no JavaScript, and links to it load it in full.
 */
export interface ResourceRouteDefinition {
  readonly path: string;
  readonly component?: undefined;
  /** Its GET and HEAD; without it (an action alone) they answer 405 with `Allow: POST`. */
  readonly load?: ((context: LoadContext) => ResourceAnswer | Promise<ResourceAnswer>) | undefined;
  readonly action?: (context: ActionContext) => ResourceAnswer | Promise<ResourceAnswer>;
  readonly head?: undefined;
  readonly page?: undefined;
  readonly ErrorBoundary?: undefined;
  readonly layouts?: readonly LayoutDefinition[];
}

/** A route of the table: a page, or a resource route (no component: `load` returns a `Response` or data to send as JSON). */
export type RouteDefinition<Data = unknown> = PageRouteDefinition<Data> | ResourceRouteDefinition;

export function isResourceRoute(route: RouteDefinition): route is ResourceRouteDefinition {
  return route.component === undefined;
}

/** A route of the table: a path and the page module it serves, named nowhere else. A module without a default export is a resource route. */
export function route<Data>(path: string, page: PageModule<Data>): PageRouteDefinition<Data>;
export function route(path: string, module: ResourceModule): ResourceRouteDefinition;
export function route<Data>(path: string, module: PageModule<Data> | ResourceModule): RouteDefinition<Data> {
  if (module.default === undefined) {
    // No `page`: nothing to hydrate, and the build gives a module without a default export no entry.
    const { load, action } = module;
    return { path, load, ...(action === undefined ? {} : { action }) };
  }
  const { default: component, load, head, action, ErrorBoundary, errorHead } = module;
  return {
    path,
    component,
    page: module,
    ...(load === undefined ? {} : { load }),
    ...(head === undefined ? {} : { head }),
    ...(action === undefined ? {} : { action }),
    ...(ErrorBoundary === undefined ? {} : { ErrorBoundary }),
    ...(errorHead === undefined ? {} : { errorHead }),
  };
}

/** Routes inside a layout (`layout()`): what a route table holds beside plain routes. */
export interface LayoutGroup {
  readonly layout: LayoutDefinition;
  readonly children: readonly RouteTableEntry[];
  /** The page shown inside the layout for an address no route has (shared/api/not-found-route.ts). */
  readonly notFound?: PageModule;
}

/** An entry of a route table: a route, or a layout with the routes inside it. */
export type RouteTableEntry = RouteDefinition | LayoutGroup;

function isLayoutGroup(entry: RouteTableEntry): entry is LayoutGroup {
  return 'children' in entry;
}

/**
 * A layout around routes (React Router's `layout(file, children)`): each child renders inside
 * it, through its `<Outlet />`. The children write their full paths: a layout adds no path of
 * its own, so an address reads in one place. `id` names it for `useRouteLoaderData(id)`;
 * `notFound`, a page module, is shown inside it with 404 for an address no route has
 * (docs/status-pages.md#a-404-inside-the-apps-layouts).
 */
export function layout<Data>(
  module: LayoutModule<Data>,
  children: readonly RouteTableEntry[],
  { id, notFound }: { readonly id: string; readonly notFound?: PageModule | undefined },
): LayoutGroup {
  const { default: component, load, head, ErrorBoundary, errorHead } = module;
  const definition: LayoutDefinition<Data> = {
    id,
    component,
    ...(load === undefined ? {} : { load }),
    ...(head === undefined ? {} : { head }),
    ...(ErrorBoundary === undefined ? {} : { ErrorBoundary }),
    ...(errorHead === undefined ? {} : { errorHead }),
  };
  return { layout: definition, children, ...(notFound === undefined ? {} : { notFound }) };
}

/**
 * The routes of a table, each with the layouts around it, outermost first: what the server
 * mounts. Layout ids must be unique, and never a route's path, since hooks name routes by both.
 */
export function flattenRoutes(table: readonly RouteTableEntry[], around: readonly LayoutDefinition[] = [], ids = new Set<string>()): RouteDefinition[] {
  const flat: RouteDefinition[] = [];
  for (const entry of table) {
    if (isLayoutGroup(entry)) {
      if (ids.has(entry.layout.id) || entry.layout.id.startsWith('/'))
        throw new Error(`Layout id "${entry.layout.id}": layout ids are unique and never start with "/" (a route's id is its path)`);
      if (entry.children.length === 0) throw new Error(`Layout id "${entry.layout.id}": its list of routes is empty, so it frames nothing`);
      ids.add(entry.layout.id);
      flat.push(...flattenRoutes(entry.children, [...around, entry.layout], ids));
    } else flat.push(around.length === 0 ? entry : { ...entry, layouts: [...around, ...(entry.layouts ?? [])] });
  }
  return flat;
}

/** A server-only route written inline (tests build apps this way); ties `load` to `data`, or types a resource route. */
export function defineRoute<Data>(route: PageRouteDefinition<Data>): PageRouteDefinition<Data>;
export function defineRoute(route: ResourceRouteDefinition): ResourceRouteDefinition;
export function defineRoute<Data>(route: RouteDefinition<Data>): RouteDefinition<Data> {
  return route;
}
