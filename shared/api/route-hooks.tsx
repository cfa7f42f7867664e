import { createContext, use, type ReactNode } from 'react';
import type { InvalidData, InvalidSubmission } from './action-helpers.ts';
import type { Location } from './location.ts';
import type { DataWithResponseInit } from './answers.ts';
import type { LoadedData, RouteParams } from './route-definition.ts';

/**
 * One route's values on the screen (React Router's names and shapes:
 * docs/building-an-app.md#typed-data-hooks): the nearest route's for `useLoaderData()`, and for
 * a layout the element its `<Outlet />` renders. Props keep working: a page may take them or call
 * the hooks, anywhere below it, without passing anything down.
 */
export interface RouteValues {
  readonly id: string;
  readonly data: unknown;
  readonly params: RouteParams;
  /** Where the page is (`useLocation()`, shared/api/location.ts). */
  readonly location: Location;
  readonly actionData: unknown;
  readonly outlet: ReactNode;
}

export const RouteValuesContext = createContext<RouteValues | undefined>(undefined);

/** Every route on the screen, outermost first, with its id (layouts' ids, the page's path), for `useRouteLoaderData(id)`. */
export const RouteDataContext = createContext<readonly { readonly id: string; readonly data: unknown }[]>([]);

/** Where a layout shows the route inside it (React Router's `<Outlet />`). */
export function Outlet(): ReactNode {
  return routeValues('Outlet').outlet;
}

function routeValues(hook: string): RouteValues {
  const values = use(RouteValuesContext);
  if (values === undefined) throw new Error(`${hook}() is called outside a page or a layout: only they and what they render can read their route`);
  return values;
}

type AnyFunction = (...args: never[]) => unknown;

/** What an action's result is for the page: `invalid()` as `{ errors, values }`, `data()` unwrapped. */
export type ActionDataOf<Action extends AnyFunction> =
  Awaited<ReturnType<Action>> extends infer Result
    ? Result extends InvalidSubmission<infer Errors, infer Values>
      ? InvalidData<Errors, Values>
      : Result extends DataWithResponseInit<infer Data>
        ? Data
        : Result
    : never;

/** The data of a route on the screen, by its id (a layout's `id`, a page's path), typed from its `load`; `undefined` when it is not on the screen. */
export function useRouteLoaderData<Load extends AnyFunction>(id: string): LoadedData<Load> | undefined {
  return use(RouteDataContext).find((route) => route.id === id)?.data as LoadedData<Load> | undefined;
}

/** The data of the nearest route (the page's in a page, the layout's in a layout), typed from its `load`: `useLoaderData<typeof load>()`. */
export function useLoaderData<Load extends AnyFunction>(): LoadedData<Load> {
  return routeValues('useLoaderData').data as LoadedData<Load>;
}

/** What the page's action returned, after a post; `undefined` before one: `useActionData<typeof action>()`. */
export function useActionData<Action extends AnyFunction>(): ActionDataOf<Action> | undefined {
  return routeValues('useActionData').actionData as ActionDataOf<Action> | undefined;
}

/** Characters that end a parameter's name in an Express 5 path (path-to-regexp 8). */
type NameEnd = '/' | '-' | '.' | '{' | '}' | '(' | ')' | '*' | ':' | '?' | '+' | '~' | '@' | '!' | ',' | ';' | '=' | '&' | '$' | "'" | '"';

type ReadName<Text extends string, Name extends string = ''> = Text extends `${infer Head}${infer Rest}` ? (Head extends NameEnd ? Name : ReadName<Rest, `${Name}${Head}`>) : Name;

/** The names of `:name` and `*name` parameters in a path (without optional groups). */
type NamesIn<Path extends string> = Path extends `${string}${':' | '*'}${infer Rest}` ? ReadName<Rest> | NamesIn<Rest> : never;

/** Optional groups `{…}` of a path, and the path without them. */
type OptionalPart<Path extends string> = Path extends `${string}{${infer Group}}${infer Rest}` ? Group | OptionalPart<Rest> : never;
type RequiredPart<Path extends string> = Path extends `${infer Head}{${string}}${infer Rest}` ? `${Head}${RequiredPart<Rest>}` : Path;

type Flatten<Type> = { [Key in keyof Type]: Type[Key] };

/**
 * The parameters of an Express 5 path pattern: `/guestbook/:id` gives `{ id: string }`,
 * `/files/*path` gives `{ path: string }` (its segments joined by `/`), `/users{/:id}` gives
 * `{ id?: string }`.
 */
export type PathParams<Path extends string> = string extends Path
  ? RouteParams
  : Flatten<
      { readonly [Name in Exclude<NamesIn<RequiredPart<Path>>, ''>]: string } & {
        readonly [Name in Exclude<NamesIn<OptionalPart<Path>>, '' | NamesIn<RequiredPart<Path>>>]?: string;
      }
    >;

/** A path's parameters, or a module's `Route.Params` as they are. */
type ParamsOf<Of> = Of extends string ? PathParams<Of> : Of;

/**
 * The page's path parameters (in a layout too), typed from the route table by the module's
 * `Route.Params` (docs/building-an-app.md#typed-path-parameters): `useParams<Route.Params>()`;
 * or from a path written out, `useParams<'/guestbook/:id'>()`.
 */
export function useParams<Of extends string | object = string>(): ParamsOf<Of> {
  return routeValues('useParams').params as ParamsOf<Of>;
}
