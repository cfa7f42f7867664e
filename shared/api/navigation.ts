import { createContext, useContext, useSyncExternalStore, type FormEvent } from 'react';
import { FORM_TOKEN_FIELD } from '../protocol/form-token-field.ts';
import type { FetcherState } from './fetcher.tsx';

/**
 * What links and forms ask of the browser's navigation runtime (client/router.tsx), which
 * installs itself after hydration. On the server, and before hydration, nothing is installed:
 * links and forms are plain HTML and the browser does the work.
 */
export interface Navigator {
  /** Navigates in place; false when the browser should follow the link itself (full load). */
  navigate(url: URL, options?: { readonly replace?: boolean }): boolean;
  /** Sends a form with fetch and shows the answer in place; false to let the browser post. */
  submit(form: HTMLFormElement, submitter: HTMLElement | null): boolean;
  /** Fetches a page's code (and, when asked, its data) ahead of a likely navigation. */
  prefetch(url: URL, data: boolean): void;
  /**
   * A fetcher's request (shared/api/fetcher.tsx), without navigating: a post (`body`, its fields
   * without the form token as `posted`), answered with the action's result alone, or a page's
   * data. Shows each state after the first through `show`: `loading` while the page loads again
   * after a post or goes where the action redirected, then `idle` with the result; settles then.
   * Rejects with why it failed, as a route's `useRouteError()` would give it, or when no answer
   * of the app's came (the network, an answer cut short or foreign).
   */
  fetch(url: URL, body: URLSearchParams | undefined, signal: AbortSignal, show: ShowFetcher, posted: Submission | undefined): Promise<void>;
  /**
   * Loads the page on the screen again, every level its layouts let (`shouldRevalidate`), in
   * place (same history entry, scroll and focus); settles once it shows. `onShow` runs inside the update that shows it (or once the
   * revalidation ends without showing), so what a fetcher sets there renders with the page's new
   * data, never a frame apart.
   */
  revalidate(onShow: () => void, after?: Submission): Promise<void>;
}

/** A post that a revalidation follows, as the layouts' `shouldRevalidate` is told of it. */
export interface Submission {
  /** Where it went: path and query. */
  readonly formAction: string;
  /** Its fields, without the form token the runtime adds. */
  readonly formData: FormData;
  /** A fetcher's: what its action returned. */
  readonly actionResult?: unknown;
}

/** A post as the app sees it (`fetcher.formData`, `shouldRevalidate`): its fields without the form token, to `url`. */
export function submissionOf(url: URL, body: URLSearchParams): Submission {
  const formData = new FormData();
  for (const [name, value] of body) if (name !== FORM_TOKEN_FIELD) formData.append(name, value);
  return { formAction: `${url.pathname}${url.search}`, formData };
}

/** The button that sent the form, whose name, value and `formaction` count. */
export function submitterOf(event: FormEvent<HTMLFormElement>): HTMLElement | null {
  return event.nativeEvent instanceof SubmitEvent && event.nativeEvent.submitter instanceof HTMLElement ? event.nativeEvent.submitter : null;
}

/** Where a form's submission goes: the button's `formaction`, else the form's `action`, else the page's own address. */
export function actionOf(form: HTMLFormElement, submitter: HTMLElement | null): URL {
  return new URL(submitter?.getAttribute('formaction') ?? form.getAttribute('action') ?? location.href, location.href);
}

/** The text fields of a form, as the urlencoded body forms send (a file has no place in it). */
export function fieldsOf(form: FormData): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of form) if (typeof value === 'string') body.append(name, value);
  return body;
}

/** What a fetcher shows as its request goes (Navigator.fetch): its state and data. */
export type ShowFetcher = (state: FetcherState, data: unknown) => void;

let installed: Navigator | undefined;
let settleInstalling: ((navigator: Navigator) => void) | undefined;
const installing = new Promise<Navigator>((resolve) => {
  settleInstalling = resolve;
});

export function installNavigator(navigator: Navigator): void {
  installed = navigator;
  settleInstalling?.(navigator);
}

export function currentNavigator(): Navigator | undefined {
  return installed;
}

/** The runtime, once installed: a fetcher started while the page hydrates (in an effect) waits for it. */
export function installedNavigator(): Promise<Navigator> {
  return installing;
}

/** Where a navigation or a form submission stands, for pending indicators ("Saving…"). */
export interface NavigationState {
  readonly state: 'idle' | 'loading' | 'submitting';
  /** The address being loaded, or the form's action being sent. */
  readonly location?: string | undefined;
}

const IDLE: NavigationState = { state: 'idle' };
let current: NavigationState = IDLE;
const listeners = new Set<() => void>();

export function setNavigationState(next: NavigationState): void {
  current = next.state === 'idle' ? IDLE : next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The pending state of the current navigation or submission; `idle` on the server. */
export function useNavigationState(): NavigationState {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => IDLE,
  );
}

/** The request's form token (double-submit, docs/building-an-app.md); `<Form>` sends it. */
export const FormTokenContext = createContext<string | undefined>(undefined);

export function useFormToken(): string | undefined {
  return useContext(FormTokenContext);
}
