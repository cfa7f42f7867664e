import { Component, useSyncExternalStore, type ErrorInfo, type ReactNode } from 'react';
import { describeError } from './describe-error.ts';
import { isHttpError } from '../api/http-error.ts';
import { pageStatusMessage as statusMessage } from '../wording/page-status-messages.ts';
import { lateServerStatus, latestServerDigest, statusOfDigest, subscribeServerDigests, type StatusShown } from '../protocol/server-digests.ts';
import { StatusView, applicationErrorMessage } from './status-view.tsx';

interface ErrorBoundaryProps {
  readonly children: ReactNode;
  /** Hears every error the boundary catches, e.g. to log it to the console or report it. */
  readonly onError?: (error: unknown, info: ErrorInfo) => void;
  /** Development only: message and stack below the generic text (docs/status-pages.md). */
  readonly showDetail?: boolean;
  /** A new value (the next view) clears a caught error, so a failed page does not stick, without remounting the layouts. */
  readonly resetKey?: number;
}

interface ErrorBoundaryState {
  readonly error: { readonly value: unknown } | null;
  readonly resetKey: number | undefined;
}

/** React puts a server digest on errors from boundaries that failed during SSR. */
export function digestOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'digest' in error) {
    const { digest } = error;
    if (typeof digest === 'string' && digest !== '') return digest;
  }
  return undefined;
}

/** The 4xx status an error stands for: notFound() and friends, thrown here, or named by a server digest with the server's words. */
function statusOfError(error: unknown): StatusShown | undefined {
  if (isHttpError(error)) return error.status >= 400 && error.status < 500 ? { status: error.status, message: undefined } : undefined;
  return statusOfDigest(digestOf(error));
}

/**
 * The root boundary: an exception no component handles replaces the page with the
 * application-error page of docs/status-pages.md; notFound() and friends, and a boundary that
 * called them on the server after the shell was sent, replace it with that status's view. It
 * only ever catches in the browser (the server reports render errors through React's
 * callbacks), so `location` is always there when it renders.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error: { value: error } };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: ErrorBoundaryState): Partial<ErrorBoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError?.(error, info);
  }

  override render(): ReactNode {
    const { error } = this.state;
    return (
      <PageOrError error={error} showDetail={this.props.showDetail === true}>
        {this.props.children}
      </PageOrError>
    );
  }
}

const noServerDigest = (): undefined => undefined;
const noServerStatus = (): undefined => undefined;

interface PageOrErrorProps {
  readonly error: ErrorBoundaryState['error'];
  readonly showDetail: boolean;
  readonly children: ReactNode;
}

/**
 * The page, or what replaces it. On the server and while hydrating, the store reads as empty
 * (`noServerStatus`), so the browser hydrates the server's page; a late status then takes over.
 */
function PageOrError({ error, showDetail, children }: PageOrErrorProps) {
  const lateStatus = useSyncExternalStore(subscribeServerDigests, lateServerStatus, noServerStatus);
  const shown = lateStatus ?? (error === null ? undefined : statusOfError(error.value));
  if (shown !== undefined) return <StatusInPage status={shown.status} message={shown.message ?? statusMessage(shown.status)} />;
  if (error === null) return children;
  return <ApplicationError error={error.value} showDetail={showDetail} />;
}

/**
 * The status page's view inside a page whose status line (200) is already gone: the same
 * words as the status page (the server's, in the request's language, when it sent them), and `noindex`, which React hoists into the head, since the
 * status line cannot keep search engines away any more.
 */
function StatusInPage({ status, message }: { readonly status: number; readonly message: string }) {
  return (
    <main>
      <meta name="robots" content="noindex" />
      <StatusView status={status} message={message} />
    </main>
  );
}

/**
 * The error's own digest, else that of a boundary that already failed on the server (its
 * browser retry is what threw): either way the cause is server-side and the log has it.
 */
function ApplicationError({ error, showDetail }: { readonly error: unknown; readonly showDetail: boolean }) {
  const serverDigest = useSyncExternalStore(subscribeServerDigests, latestServerDigest, noServerDigest);
  const digest = digestOf(error) ?? serverDigest;
  const side = digest === undefined ? 'client' : 'server';
  const detail = showDetail ? describeError(error) : undefined;
  return (
    <main>
      <StatusView message={applicationErrorMessage(side, location.hostname)} digest={digest} detail={detail} />
    </main>
  );
}
