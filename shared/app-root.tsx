import type { ErrorInfo, ReactNode } from 'react';
import { ErrorBoundary } from './error-boundary.tsx';

interface AppRootProps {
  readonly children: ReactNode;
  readonly onError?: (error: unknown, info: ErrorInfo) => void;
  /** Development only: the error page adds message and stack; the server says when. */
  readonly showErrorDetail?: boolean;
}

/** The tree both sides render inside `#root`: server and client must build it identically. */
export function AppRoot({ children, onError, showErrorDetail = false }: AppRootProps) {
  return (
    <ErrorBoundary showDetail={showErrorDetail} {...(onError ? { onError } : {})}>
      {children}
    </ErrorBoundary>
  );
}
