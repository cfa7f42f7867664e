import type { ErrorInfo, ReactNode } from 'react';
import { ErrorBoundary } from './error-boundary.tsx';
import { FormTokenContext } from '../api/navigation.ts';

interface AppRootProps {
  readonly children: ReactNode;
  readonly onError?: (error: unknown, info: ErrorInfo) => void;
  /** Development only: the error page adds message and stack; the server says when. */
  readonly showErrorDetail?: boolean;
  /** The request's form token, which `<Form>` sends; only when the app has actions. */
  readonly formToken?: string | undefined;
  /** Changes with every view: clears what the root boundary caught (error-boundary.tsx). */
  readonly resetKey?: number;
}

/** The tree both sides render inside `#root`: server and client must build it identically. */
export function AppRoot({ children, onError, showErrorDetail = false, formToken, resetKey = 0 }: AppRootProps) {
  return (
    <FormTokenContext value={formToken}>
      <ErrorBoundary showDetail={showErrorDetail} resetKey={resetKey} {...(onError ? { onError } : {})}>
        {children}
      </ErrorBoundary>
    </FormTokenContext>
  );
}
