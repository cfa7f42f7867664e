import { Component, createContext, use, type ReactNode } from 'react';

/**
 * React Router's `<Await>`: a deferred value (a promise in `load`'s data) rendered once it
 * settles, inside the `<Suspense>` that shows meanwhile. With an `errorElement`, a rejection shows
 * that element in the value's place, and the route's `ErrorBoundary` (which would replace the
 * whole page) is not reached; `useAsyncError()` in it says why (a deferred value's error carries
 * the digest of its one log line). Without one, the rejection goes to the route's boundary, as
 * `use()` alone would.
 */

const AsyncErrorContext = createContext<{ readonly error: unknown } | undefined>(undefined);

/** In an `<Await>`'s `errorElement`: the value's rejection. */
export function useAsyncError(): unknown {
  const caught = use(AsyncErrorContext);
  if (caught === undefined) throw new Error("useAsyncError() outside an <Await>'s errorElement");
  return caught.error;
}

export interface AwaitProps<Value> {
  /** The deferred value (a promise of `load`'s data), or a value already there. */
  readonly resolve: PromiseLike<Value> | Value;
  /** Shown in the value's place when it rejects. */
  readonly errorElement?: ReactNode;
  readonly children: (value: Value) => ReactNode;
}

function isThenable<Value>(value: PromiseLike<Value> | Value): value is PromiseLike<Value> {
  return typeof (value as Partial<PromiseLike<Value>> | null)?.then === 'function';
}

function Resolved<Value>({ resolve, children }: Pick<AwaitProps<Value>, 'resolve' | 'children'>): ReactNode {
  return children(isThenable(resolve) ? use(resolve) : resolve);
}

interface CatcherProps {
  readonly errorElement: ReactNode;
  readonly children: ReactNode;
}

/** The value's own boundary: catches its rejection (in the browser; the server leaves a rejected boundary to it). */
class AwaitErrorCatcher extends Component<CatcherProps, { readonly caught: { readonly error: unknown } | null }> {
  override state: { readonly caught: { readonly error: unknown } | null } = { caught: null };

  static getDerivedStateFromError(error: unknown): { readonly caught: { readonly error: unknown } } {
    return { caught: { error } };
  }

  override render(): ReactNode {
    const { caught } = this.state;
    return caught === null ? this.props.children : <AsyncErrorContext value={caught}>{this.props.errorElement}</AsyncErrorContext>;
  }
}

export function Await<Value>({ resolve, errorElement, children }: AwaitProps<Value>): ReactNode {
  const resolved = <Resolved resolve={resolve}>{children}</Resolved>;
  return errorElement === undefined ? resolved : <AwaitErrorCatcher errorElement={errorElement}>{resolved}</AwaitErrorCatcher>;
}
