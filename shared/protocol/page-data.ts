import type { ResolvedHead } from '../api/head.ts';
import type { RouteParams } from '../api/route-definition.ts';
import type { RouteErrorPayload } from '../api/route-errors.tsx';
import type { PageTelemetry } from './telemetry.ts';

export interface EmbeddedPageData {
  readonly data: unknown;
  readonly params: RouteParams;
  /** Present when first-party web vitals and error reports are switched on. */
  readonly telemetry?: PageTelemetry;
  /** Set by a development server: the client error page may show message and stack. */
  readonly development?: true;
  /** What the route's action returned, when the page is shown again after a form post. */
  readonly actionData?: unknown;
  /** The form token `<Form>` sends (docs/building-an-app.md); only when the app has actions. */
  readonly formToken?: string;
  /** The URL of the route table's module: the routes the browser can navigate to in place, with their code (ClientRoute[]). */
  readonly navigation?: string;
  /** The route's path, the page's id for `useRouteLoaderData`; with layouts only. */
  readonly route?: string;
  /**
   * The layouts around the page, outermost first, each with its data; on an in-place navigation
   * `kept` instead of data for one the browser has on the screen already and asked to keep.
   */
  readonly layouts?: readonly LayoutData[];
  /** A load of the branch failed and the boundary at this level shows (server/render/branch-loads.ts). */
  readonly failure?: { readonly at: number; readonly error: RouteErrorPayload };
}

/** One layout's part of the page data. */
export interface LayoutData {
  readonly id: string;
  readonly data?: unknown;
  readonly kept?: true;
}

/** The seroval scope (`self.$R[scope]`) the server's data scripts write the page's data into. */
export const PAGE_DATA_SCOPE = 'page';

/** The name a deferred value's rejection carries on both sides (server/render/deferred-data.ts). */
export const DEFERRED_DATA_ERROR = 'DeferredDataError';

/**
 * A route as the browser sees it: its path's pattern as Express matches it, and its code; a
 * route without code ships no JavaScript, so the browser loads it in full.
 */
export interface ClientRoute {
  /** `RegExp` source and flags of the route's path pattern (path-to-regexp, as Express's router compiles it). */
  readonly source: string;
  readonly flags: string;
  readonly script?: string;
  readonly preloads?: readonly string[];
  /** The page's stylesheets: a navigation there adds those the document lacks and waits for them before it shows the page. */
  readonly styles?: readonly string[];
}

/** The first line of a page's data response (server/render/page-data-answer.ts). */
export interface PageDataMeta {
  /** The route's path pattern. */
  readonly route: string;
  readonly head: ResolvedHead;
  /** The page's code; `null` for a page that ships none (the browser loads it in full). */
  readonly assets: { readonly script: string; readonly preloads: readonly string[] } | null;
  /**
   * Back and forward may show the page again from the browser's memory, without asking: its
   * Cache-Control lets a shared cache give it to anyone, without asking first.
   */
  readonly keep?: true;
}
