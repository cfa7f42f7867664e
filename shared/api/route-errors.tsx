import { Component, createContext, use, type ComponentType, type ReactNode } from 'react';
import { isHttpError } from './http-error.ts';
import { pageStatusMessage as statusMessage } from '../wording/page-status-messages.ts';

/**
 * A failed load as the page data carries it to the browser (server/render/branch-loads.ts): the
 * status, and for a server error the digest of its log line (message and stack in development
 * only). Never the error itself.
 */
export interface RouteErrorPayload {
  readonly status: number;
  readonly statusText: string;
  readonly digest?: string;
  readonly message?: string;
  readonly stack?: string | undefined;
}

/** A status a route ended in (`notFound()` and the rest): what `useRouteError()` gives for it, as React Router's `ErrorResponse`. */
export interface RouteErrorResponse {
  readonly status: number;
  readonly statusText: string;
  readonly data: undefined;
}

/** A server error a boundary shows: its digest is the one in the log line. */
export class ServerRouteError extends Error {
  override readonly name = 'ServerRouteError';
  readonly digest: string | undefined;

  constructor(payload: RouteErrorPayload) {
    super(payload.message ?? 'The server could not load this part of the page.');
    this.digest = payload.digest;
    this.stack = payload.stack;
  }
}

/** Whether `useRouteError()` gave a status (a 4xx a status helper asked for) rather than an exception. */
export function isRouteErrorResponse(error: unknown): error is RouteErrorResponse {
  return typeof error === 'object' && error !== null && !(error instanceof Error) && 'status' in error && 'statusText' in error && typeof error.status === 'number';
}

/** The same value on the server and in the browser, so a boundary hydrates as it was rendered. */
export function routeErrorOf(payload: RouteErrorPayload): unknown {
  return payload.status < 500 ? { status: payload.status, statusText: payload.statusText, data: undefined } : new ServerRouteError(payload);
}

/** What a boundary that caught an exception in the browser gives: a status helper's as its status. */
function caughtValue(error: unknown): unknown {
  return isHttpError(error) && error.status < 500 ? routeErrorOf({ status: error.status, statusText: statusMessage(error.status) }) : error;
}

const RouteErrorContext = createContext<{ readonly error: unknown } | undefined>(undefined);

/** The error a route's `ErrorBoundary` shows (React Router's name): a `RouteErrorResponse` for a status, else what was thrown. */
export function useRouteError(): unknown {
  const caught = use(RouteErrorContext);
  if (caught === undefined) throw new Error("useRouteError() outside a route's ErrorBoundary");
  return caught.error;
}

/** Renders a route's `ErrorBoundary` with `error` for `useRouteError()`. */
export function RouteErrorView({ Boundary, error }: { readonly Boundary: ComponentType; readonly error: unknown }): ReactNode {
  return (
    <RouteErrorContext value={{ error }}>
      <Boundary />
    </RouteErrorContext>
  );
}

interface CatchProps {
  readonly Boundary: ComponentType;
  /** A new value (the next view) clears a caught error: a failed page does not stick. */
  readonly resetKey: number;
  readonly children: ReactNode;
}

interface CatchState {
  readonly caught: { readonly error: unknown } | null;
  readonly resetKey: number;
}

/**
 * Catches what a route's part of the page throws in the browser and shows the route's
 * `ErrorBoundary` in its place; the layouts above it stay. React logs the error to the console
 * as for any boundary.
 */
export class RouteErrorCatcher extends Component<CatchProps, CatchState> {
  override state: CatchState = { caught: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<CatchState> {
    return { caught: { error: caughtValue(error) } };
  }

  static getDerivedStateFromProps(props: CatchProps, state: CatchState): Partial<CatchState> | null {
    return props.resetKey === state.resetKey ? null : { caught: null, resetKey: props.resetKey };
  }

  override render(): ReactNode {
    const { caught } = this.state;
    return caught === null ? this.props.children : <RouteErrorView Boundary={this.props.Boundary} error={caught.error} />;
  }
}
