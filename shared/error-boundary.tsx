import { Component, useSyncExternalStore, type ErrorInfo, type ReactNode } from 'react';
import { describeError } from './describe-error.ts';
import { latestServerDigest, subscribeServerDigests } from './server-digests.ts';
import { StatusView, applicationErrorMessage } from './status-view.tsx';

interface ErrorBoundaryProps {
  readonly children: ReactNode;
  /** Hears every error the boundary catches, e.g. to log it to the console or report it. */
  readonly onError?: (error: unknown, info: ErrorInfo) => void;
  /** Development only: message and stack below the generic text (docs/status-pages.md). */
  readonly showDetail?: boolean;
}

interface ErrorBoundaryState {
  readonly error: { readonly value: unknown } | null;
}

/** React puts a server digest on errors from boundaries that failed during SSR. */
export function digestOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'digest' in error) {
    const { digest } = error;
    if (typeof digest === 'string' && digest !== '') return digest;
  }
  return undefined;
}

/**
 * The root boundary: an exception no component handles replaces the page with the
 * application-error page of docs/status-pages.md. It only ever catches in the browser (the server reports
 * render errors through React's callbacks), so `location` is always there when it renders.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: { value: error } };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError?.(error, info);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === null) return this.props.children;
    return <ApplicationError error={error.value} showDetail={this.props.showDetail === true} />;
  }
}

const noServerDigest = (): undefined => undefined;

/**
 * The error's own digest, else that of a boundary that already failed on the server (its
 * browser retry is what threw): either way the cause is server-side and the log has it.
 */
function ApplicationError({ error, showDetail }: { readonly error: unknown; readonly showDetail: boolean }) {
  const serverDigest = useSyncExternalStore(subscribeServerDigests, latestServerDigest, noServerDigest);
  const digest = digestOf(error) ?? serverDigest;
  const side = digest === undefined ? 'client' : 'server';
  const detail = showDetail ? describeError(error) : undefined;
  return <StatusView message={applicationErrorMessage(side, location.hostname)} digest={digest} detail={detail} />;
}
