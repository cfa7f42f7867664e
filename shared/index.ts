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
  type ResourceAnswer,
  type ResourceModule,
  type RouteParams,
  type RouteTableEntry,
  type ShouldRevalidate,
  type ShouldRevalidateArgs,
} from './api/route-definition.ts';

// What `load` and an action answer.
export { data, redirect, type AnswerInit } from './api/answers.ts';
export { invalid, type InvalidData } from './api/action-helpers.ts';
export { forbidden, notFound, serviceUnavailable, unauthorized } from './api/status-helpers.ts';

// The head.
export type { LayoutHead, OpenGraph, PageHead, SiteHead, TextDirection } from './api/head.ts';

// Components and hooks.
export { Link, type LinkProps } from './api/link.tsx';
export { NavLink, type NavLinkProps, type NavLinkRenderProps } from './api/nav-link.tsx';
export { Form, type FormProps } from './api/form.tsx';
export { Outlet, useActionData, useLoaderData, useParams, useRouteLoaderData, type PathParams } from './api/route-hooks.tsx';
export { isRouteErrorResponse, ServerRouteError, useRouteError, type RouteErrorResponse } from './api/route-errors.tsx';
export { useFetcher, useFetchers, type Fetcher, type FetcherInFlight, type FetcherState, type SubmitTarget } from './api/fetcher.tsx';
export { useRevalidator, type Revalidator } from './api/revalidator.ts';
export { Await, useAsyncError, type AwaitProps } from './api/await.tsx';
export { useNavigationState, type NavigationState } from './api/navigation.ts';
export { useLocation, type Location } from './api/location.ts';
