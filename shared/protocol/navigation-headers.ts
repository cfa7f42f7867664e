/**
 * The names the browser runtime and the server agree on for in-place navigation: its request
 * and answer headers and the scopes its data scripts write into (docs/navigation.md). Changing
 * one changes the protocol on both sides. Only the navigation runtime reads them in the
 * browser; the form token's field, which every form renders, is in form-token-field.ts.
 */

/** The request header that asks a page for its data instead of its document. */
export const NAVIGATION_HEADER = 'x-navigation';

/** The request header naming the scope (`self.$R[scope]`) a navigation's data scripts write into. */
export const NAVIGATION_SCOPE_HEADER = 'x-navigation-scope';

/** The request header naming the layouts, by id, whose data the browser has on the screen and keeps (server/render/branch-loads.ts). */
export const NAVIGATION_KEEP_HEADER = 'x-navigation-keep';

/**
 * The request header of a fetcher's post (shared/api/fetcher.tsx): the answer is the action's result
 * alone, as data lines, and no load of the page runs; the browser keeps the page on the screen.
 */
export const NAVIGATION_FETCHER_HEADER = 'x-navigation-fetcher';

/** Scopes the browser may ask for: short, and nothing a script could break out of. */
export const NAVIGATION_SCOPE = /^[a-z][a-z0-9]{0,15}$/;

/** The answer header that sends an in-place form submission on to where its action redirected. */
export const NAVIGATION_REDIRECT_HEADER = 'x-navigation-redirect';
