import type { ErrorInfo, ReactNode } from 'react';
import { ErrorBoundary } from './error-boundary.tsx';

interface AppRootProps {
  readonly children: ReactNode;
  readonly onError?: (error: unknown, info: ErrorInfo) => void;
}

/** The tree both sides render inside `#root`: server and client must build it identically. */
export function AppRoot({ children, onError }: AppRootProps) {
  return <ErrorBoundary {...(onError ? { onError } : {})}>{children}</ErrorBoundary>;
}
