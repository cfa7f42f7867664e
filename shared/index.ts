/**
 * The package's main door (`react-stream-shell`): what a route module and its components use,
 * on the server and in the browser. Every name here is public and follows semver
 * (docs/api.md); anything reached by another path is private and may change in any release.
 */

// The route table and the types of route modules.
export {
  defineRoute,
  layout,
  route,
  type ActionContext,
  type AppLoadContext,
  type ErrorHead,
  type HeadDefinition,
  type LayoutModule,
  type LoadContext,
  type LoadedData,
  type LoadResult,
  type PageComponent,
  type PageModule,
  type PageProps,
  type PageRequest,
  type ResourceModule,
  type RouteParams,
  type RouteTableEntry,
  type ShouldRevalidate,
  type ShouldRevalidateArgs,
} from './route-definition.ts';

// What `load` and an action answer.
export { data, redirect, type AnswerInit } from './responses.ts';
export { invalid, type InvalidData } from './action-helpers.ts';
export { forbidden, notFound, unauthorized } from './status-helpers.ts';

// The head.
export type { LayoutHead, OpenGraph, PageHead, SiteHead, TextDirection } from './head.ts';

// Components and hooks.
export { Link, type LinkProps } from './link.tsx';
export { NavLink, type NavLinkProps, type NavLinkRenderProps } from './nav-link.tsx';
export { Form, type FormProps } from './form.tsx';
export { Outlet, useActionData, useLoaderData, useParams, useRouteLoaderData, type PathParams } from './route-hooks.tsx';
export { isRouteErrorResponse, ServerRouteError, useRouteError, type RouteErrorResponse } from './route-errors.tsx';
export { useFetcher, useFetchers, type Fetcher, type FetcherInFlight, type FetcherState, type SubmitTarget } from './fetcher.tsx';
export { useRevalidator, type Revalidator } from './revalidator.ts';
export { Await, useAsyncError, type AwaitProps } from './await.tsx';
export { useNavigationState, type NavigationState } from './navigation.ts';
export { useLocation, type Location } from './location.ts';
