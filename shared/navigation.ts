import { createContext, useContext, useSyncExternalStore } from 'react';

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
}

let installed: Navigator | undefined;

export function installNavigator(navigator: Navigator): void {
  installed = navigator;
}

export function currentNavigator(): Navigator | undefined {
  return installed;
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

/** The name of the form field that carries the token. */
export const FORM_TOKEN_FIELD = '_csrf';

/** The request header that asks a page for its data instead of its document. */
export const NAVIGATION_HEADER = 'x-navigation';

/** The request header naming the scope (`self.$R[scope]`) a navigation's data scripts write into. */
export const NAVIGATION_SCOPE_HEADER = 'x-navigation-scope';

/** The request header naming the layouts, by id, whose data the browser has on the screen and keeps (server/render/branch-loads.ts). */
export const NAVIGATION_KEEP_HEADER = 'x-navigation-keep';

/**
 * The request header of a fetcher's post (shared/fetcher.tsx): the answer is the action's result
 * alone, as data lines, and no load of the page runs; the browser keeps the page on the screen.
 */
export const NAVIGATION_FETCHER_HEADER = 'x-navigation-fetcher';

/** Scopes the browser may ask for: short, and nothing a script could break out of. */
export const NAVIGATION_SCOPE = /^[a-z][a-z0-9]{0,15}$/;

/** The answer header that sends an in-place form submission on to where its action redirected. */
export const NAVIGATION_REDIRECT_HEADER = 'x-navigation-redirect';
