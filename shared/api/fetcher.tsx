import { useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { FormProps } from './form.tsx';
import { actionOf, currentNavigator, fieldsOf, installedNavigator, submissionOf, submitterOf, useFormToken } from './navigation.ts';
import { FORM_TOKEN_FIELD } from '../protocol/form-token-field.ts';
import type { ActionDataOf } from './route-hooks.tsx';

type AnyFunction = (...args: never[]) => unknown;

/** What a fetcher is doing: nothing, sending its post, or loading (a page's data, the page again after its post, or where its action redirected). */
export type FetcherState = 'idle' | 'submitting' | 'loading';

/** What `fetcher.submit()` posts: a form's fields, search parameters, or a plain object of strings. */
export type SubmitTarget = FormData | URLSearchParams | Readonly<Record<string, string>>;

/** A fetcher (React Router's `useFetcher()`): a route's action or data, without navigating. */
export interface Fetcher<Data> {
  readonly state: FetcherState;
  /** The action's result after a post (`invalid()`'s `{ errors, values }`, `data()` unwrapped), the page's data after a load; kept while the next request runs. */
  readonly data: Data | undefined;
  /** Why the last request failed, as a route's `useRouteError()` would give it: a status (`isRouteErrorResponse`), else an `Error` (a server error's with its digest). */
  readonly error: unknown;
  /**
   * The fields being posted, from the submit until the page shows what the action changed (the
   * `submitting` and the following `loading` state); otherwise undefined. What optimistic UI
   * reads: a like counted before the server has answered.
   */
  readonly formData: FormData | undefined;
  /** Where those fields are posted (path and query), while `formData` is set. */
  readonly formAction: string | undefined;
  /** `'POST'` while `formData` is set. */
  readonly formMethod: 'POST' | undefined;
  /** A `<Form>` that posts to an action without navigating, once the page has hydrated; before, a plain post. */
  readonly Form: (props: Omit<FormProps, 'method'>) => ReactNode;
  /** Posts, urlencoded, with the form token, to `action` (default: the page's own address). */
  submit(target: SubmitTarget, options?: { readonly action?: string }): Promise<void>;
  /** Loads a page's data (its `load`'s) without going there. */
  load(href: string): Promise<void>;
  /** Back to idle, without data or error; a request under way is aborted and its answer dropped. */
  reset(): void;
}

/** What a fetcher shows, as `useFetcher()` gives it and `useFetchers()` lists it; a field left out is undefined. */
interface Snapshot {
  readonly state: FetcherState;
  readonly data?: unknown;
  readonly error?: unknown;
  readonly formData?: FormData | undefined;
  readonly formAction?: string | undefined;
  readonly formMethod?: 'POST' | undefined;
}

const IDLE: Snapshot = { state: 'idle' };

/** A fetcher in the browser (the server never makes one): its state, its requests, and how many mounted components show it. */
interface FetcherEntry {
  snapshot: Snapshot;
  readonly run: (url: URL, body?: URLSearchParams) => Promise<void>;
  readonly reset: () => void;
  users: number;
}

/** The fetchers by key (`useFetcher({ key })` shares one): made when shown or asked, gone once idle with no component showing them. */
const fetchers = new Map<string, FetcherEntry>();
const listeners = new Set<() => void>();
/** What `useFetchers()` returns, made again on each change only (so a render sees it unchanged until then). */
const NONE: readonly FetcherInFlight[] = [];
let inFlight = NONE;

/** A fetcher under way, as `useFetchers()` lists it: its state and submission, without its methods. */
export interface FetcherInFlight extends Snapshot {
  readonly key: string;
}

function changed(): void {
  inFlight = [...fetchers].filter(([, entry]) => entry.snapshot.state !== 'idle').map(([key, { snapshot }]) => ({ key, ...snapshot }));
  for (const listener of listeners) listener();
}

/**
 * A value of the fetchers' store, kept in the component's own state. Not useSyncExternalStore:
 * that renders every change at once, outside a transition, where a fetcher going idle must come
 * in the same render as the page the runtime shows in a transition (Navigator.revalidate). The
 * first render shows what the server rendered (`initial`), so a Suspense boundary that hydrates
 * after a fetcher started matches the server's HTML; the store is read before the browser paints.
 */
function useFetcherStore<T>(read: () => T, initial: T, key?: string): T {
  const [value, setValue] = useState(initial);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `read` follows `key`, which the subscription follows
  useLayoutEffect(() => {
    // A fetcher's own hook holds it: it stays, with its data, while a component shows it.
    if (key !== undefined) fetcherOf(key).users += 1;
    const listener = () => setValue(read);
    // What the store holds now: a fetcher under way since before this component was on the page.
    listener();
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (key === undefined) return;
      fetcherOf(key).users -= 1;
      forgetIfUnused(key);
    };
  }, [key]);
  return value;
}

/** Forgets an idle fetcher nobody shows: its data went with its last component, as in React Router. */
function forgetIfUnused(key: string): void {
  const entry = fetchers.get(key);
  if (entry?.users === 0 && entry.snapshot.state === 'idle') fetchers.delete(key);
}

/** The fetcher of `key`, made when first shown or asked: a newer request takes over, and what an older one brings back is dropped. */
function fetcherOf(key: string): FetcherEntry {
  const existing = fetchers.get(key);
  if (existing !== undefined) return existing;
  let latest: AbortController | undefined;
  const entry: FetcherEntry = { snapshot: IDLE, run, reset, users: 0 };
  fetchers.set(key, entry);

  function reset(): void {
    latest?.abort();
    latest = undefined;
    entry.snapshot = IDLE;
    changed();
    forgetIfUnused(key);
  }

  async function run(url: URL, body?: URLSearchParams): Promise<void> {
    latest?.abort();
    const controller = new AbortController();
    latest = controller;
    const posted = body === undefined ? undefined : submissionOf(url, body);
    const show = (state: FetcherState, data: unknown, error?: unknown) => {
      if (latest !== controller) return;
      entry.snapshot = state === 'idle' || posted === undefined ? { state, data, error } : { state, data, error, ...posted, formMethod: 'POST' };
      changed();
      // A fetcher whose components went while it ran is gone once it has finished.
      forgetIfUnused(key);
    };
    show(body === undefined ? 'loading' : 'submitting', entry.snapshot.data);
    try {
      // The runtime reads the answer and shows what follows (client/router/fetcher-request.ts).
      await (await installedNavigator()).fetch(url, body, controller.signal, show, posted);
    } catch (error) {
      // The page stays as it is: a side request's failure is the fetcher's to show.
      show('idle', undefined, error);
    }
  }

  return entry;
}

/**
 * A fetcher's `<Form>`: one component per key of a hook, so its fields are never mounted afresh
 * while the key stays. A plain `<form>` with the form token, as `<Form>` renders it, but not
 * `<Form>` itself: its submit handler would only ever run after this one, which either takes
 * the post or, before the runtime is there, leaves it to the browser as `<Form>` would; and a
 * page with fetchers but no `<Form>` would load it as a chunk of its own.
 */
function formFor(key: string) {
  // biome-ignore lint/correctness/noComponentHookFactories: made once per key of a hook (useFetcher's memo), so it keeps its identity while the key stays, as React Router's fetcher.Form does
  return function FetcherForm({ onSubmit, reloadDocument: _none, children, ...props }: Omit<FormProps, 'method'>) {
    const token = useFormToken();
    return (
      <form
        {...props}
        method="post"
        // Stryker disable all: a submit event comes from a browser's form alone (new FormData(form, submitter) needs a form element); the browser tests post through it (fetchers.test.ts)
        onSubmit={(event) => {
          onSubmit?.(event);
          if (event.defaultPrevented || currentNavigator() === undefined) return;
          event.preventDefault();
          const form = event.currentTarget;
          const submitter = submitterOf(event);
          void fetcherOf(key).run(actionOf(form, submitter), fieldsOf(new FormData(form, submitter)));
        }}
        // Stryker restore all
      >
        {token === undefined ? null : <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />}
        {children}
      </form>
    );
  };
}

/**
 * A fetcher: posts to a route's action, or loads a route's data, without navigating (React
 * Router's `useFetcher()`, docs/building-an-app.md#fetchers). Each call to the hook is its own
 * fetcher, with its own state, unless it names a `key`: the hooks with one key, anywhere on the
 * page, share one fetcher. Typed from the route's function: `useFetcher<typeof action>()`.
 */
export function useFetcher<Fn extends AnyFunction = AnyFunction>(options?: { readonly key?: string }): Fetcher<ActionDataOf<Fn>> {
  const generated = useId();
  const key = options?.key ?? generated;
  const snapshot = useFetcherStore(() => fetchers.get(key)?.snapshot ?? IDLE, IDLE, key);
  const token = useFormToken();
  const tokenRef = useRef(token);
  tokenRef.current = token;
  // Made once per key: its Form keeps its identity, so its fields are never mounted afresh, and an
  // effect that calls `load` or `submit` does not run again as the fetcher's state changes.
  const requests = useMemo(
    () => ({
      Form: formFor(key),
      submit(target: SubmitTarget, submitOptions?: { readonly action?: string }) {
        const body = target instanceof FormData ? fieldsOf(target) : new URLSearchParams(target);
        const formToken = tokenRef.current;
        if (formToken !== undefined && !body.has(FORM_TOKEN_FIELD)) body.set(FORM_TOKEN_FIELD, formToken);
        return fetcherOf(key).run(new URL(submitOptions?.action ?? location.href, location.href), body);
      },
      load: (href: string) => fetcherOf(key).run(new URL(href, location.href)),
      reset: () => fetcherOf(key).reset(),
    }),
    [key],
  );
  // `data` is the route's own value, sent by the server: typed from the function the page names.
  return useMemo(() => ({ ...snapshot, ...requests }) as Fetcher<ActionDataOf<Fn>>, [snapshot, requests]);
}

/**
 * Every fetcher on the page that is not idle (React Router's `useFetchers()`): for a component
 * that did not make them, to show what they are sending (an optimistic row in a list whose forms
 * live elsewhere) or a pending indicator. Empty on the server and before the first request.
 */
export function useFetchers(): readonly FetcherInFlight[] {
  return useFetcherStore(() => inFlight, NONE);
}
