import type { ComponentType } from 'react';
import type { TextDirection } from '../../shared/api/head.ts';

/**
 * What the app's own status component is given (docs/status-pages.md#the-apps-choices). The 500
 * page is rendered once with stand-ins for `host` and `digest`, filled per request: render them
 * as text, as given.
 */
export interface StatusPageProps {
  readonly status: number;
  /** The status's message in the request's language (for 500, the application-error sentence unless the app words it). */
  readonly message: string;
  /** The request's language and direction, as on `<html lang dir>`. */
  readonly lang: string;
  readonly dir?: TextDirection | undefined;
  /** 500 only: the host the sentence names and the digest of the error's log line. */
  readonly host?: string | undefined;
  readonly digest?: string | undefined;
  /** Development only: the error's message and stack. */
  readonly detail?: string | undefined;
}

/** The look options of `defineApp({ statusPages })`. */
export interface StatusLookOptions {
  /**
   * The app's component in place of the framework's status view, inside `<main>`: rendered to
   * static markup on the server, never hydrated, so it runs no code in the browser. The
   * framework's inline style is left out with it: the look is the stylesheet's.
   */
  readonly component?: ComponentType<StatusPageProps> | undefined;
  /**
   * A page's path (`'/'`): status pages link that page's built stylesheet (its layouts' rules and
   * its own, the framework's first). Served from `/assets/`, which the status answers' policy
   * allows. Without a client build there is none, and the pages keep the framework's look.
   */
  readonly stylesOf?: string | undefined;
}
