import type { ComponentType, ReactNode } from 'react';
import type { Location } from '../api/location.ts';
import type { PageComponent, RouteParams } from '../api/route-definition.ts';
import { RouteErrorCatcher, RouteErrorView, routeErrorOf, type RouteErrorPayload } from '../api/route-errors.tsx';
import { RouteDataContext, RouteValuesContext } from '../api/route-hooks.tsx';

/** One level of the branch on the screen: a layout, or the page last. */
export interface BranchLevel {
  readonly id: string;
  readonly Component: PageComponent;
  readonly ErrorBoundary?: ComponentType | undefined;
  readonly data: unknown;
}

/** What a branch shows at a level whose load failed: its (or a parent's) `ErrorBoundary` with the error. */
export interface BranchFailure {
  readonly at: number;
  readonly error: RouteErrorPayload;
}

interface RouteTreeProps {
  /** The layouts, outermost first, then the page. */
  readonly levels: readonly BranchLevel[];
  readonly params: RouteParams;
  readonly actionData: unknown;
  /** Where the page is: the request's path and query on the server, the view's address in the browser (`useLocation()`). */
  readonly location: Location;
  readonly failure?: BranchFailure | undefined;
  /** Changes with every view: the page is mounted afresh and a caught error is cleared, while layouts stay mounted. */
  readonly viewKey: number;
  /**
   * The server only: hears each level with an `ErrorBoundary` as React starts rendering it, so
   * a render that fails can be shown again with the deepest boundary reached in place of what
   * threw (React's server renderer has no error boundaries; React Router does the same).
   */
  readonly onBoundaryReached?: ((level: number) => void) | undefined;
}

/** Says that rendering has reached a boundary's level; renders nothing. */
function BoundaryReached({ level, onReached }: { readonly level: number; readonly onReached: (level: number) => void }): null {
  onReached(level);
  return null;
}

/**
 * A page inside its layouts, as the server renders it and the browser hydrates and navigates
 * it: each layout renders the next level through `<Outlet />`. Between two pages of the same
 * layouts, React finds the layouts where they were and keeps them (their state, focus, input
 * values); only the page below is new. A level with an `ErrorBoundary` catches what its part
 * throws in the browser; a load that failed on the server shows the boundary at once.
 */
export function RouteTree({ levels, params, actionData, location, failure, viewKey, onBoundaryReached }: RouteTreeProps): ReactNode {
  const last = failure?.at ?? levels.length - 1;
  let element: ReactNode = null;
  for (let index = last; index >= 0; index -= 1) {
    const level = levels[index];
    if (level === undefined) continue;
    const isPage = index === levels.length - 1;
    const { Component, ErrorBoundary } = level;
    let content: ReactNode;
    if (failure !== undefined && index === failure.at && ErrorBoundary !== undefined) content = <RouteErrorView Boundary={ErrorBoundary} error={routeErrorOf(failure.error)} />;
    else
      content = isPage ? (
        // Stryker disable next-line ConditionalExpression: equivalent; a prop given as undefined reads as one left out
        <Component key={viewKey} data={level.data} params={params} {...(actionData === undefined ? {} : { actionData })} />
      ) : (
        <Component data={level.data} params={params} />
      );
    if (ErrorBoundary !== undefined) {
      content = (
        <RouteErrorCatcher Boundary={ErrorBoundary} resetKey={viewKey}>
          {onBoundaryReached === undefined ? null : <BoundaryReached level={index} onReached={onBoundaryReached} />}
          {content}
        </RouteErrorCatcher>
      );
    }
    element = (
      <RouteValuesContext value={{ id: level.id, data: level.data, params, location, actionData: isPage ? actionData : undefined, outlet: element }}>{content}</RouteValuesContext>
    );
  }
  // The levels themselves: nothing to build per render for the rare `useRouteLoaderData`.
  return <RouteDataContext value={levels}>{element}</RouteDataContext>;
}
