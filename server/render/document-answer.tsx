import type { NextFunction, Request, Response } from 'express';
import type { ReactElement } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { AppRoot } from '../../shared/views/app-root.tsx';
import type { ResolvedHead } from '../../shared/api/head.ts';
import type { Location } from '../../shared/api/location.ts';
import { isHttpError, type HttpError } from '../../shared/api/http-error.ts';
import { RouteTree, type BranchLevel } from '../../shared/views/route-tree.tsx';
import { statusDigest } from '../../shared/protocol/server-digests.ts';
import { writePreparedHead } from '../http/response-head.ts';
import { logServerError } from '../observability/server-error-log.ts';
import { compressInto, negotiateEncoding } from '../http/compression.ts';
import { createDataStream, settledDataStream, type DataStream } from './data-stream.ts';
import { DeferredDataError } from './deferred-data.ts';
import type { DocumentHeaders } from './document-headers.ts';
import { isCrawler } from './is-crawler.ts';
import { outsideRenderContext } from './outside-render-context.ts';
import { PageDocument, type PageStylesheet } from './page-document.tsx';
import type { PageLifecycle } from './page-lifecycle.ts';
import type { PreparedPage } from './prepare-page.ts';
import { RenderNotNeededError, isRenderStopReason } from './render-errors.ts';
import { routeFailureAt, type RouteFailure } from './branch-loads.ts';
import { checkOutlets, type OutletCheck } from './outlet-check.tsx';
import { ReactDestination, type PageTarget } from './react-destination.ts';
import { createScriptChain, type ScriptChain } from './deferred-scripts.tsx';
import type { StatusWords } from './status-words.ts';
import { pageLocation } from './page-location.ts';

/** How every document of the app is written. */
export interface DocumentSettings {
  /** gzip or brotli when the client accepts it; off where a proxy compresses instead. */
  readonly compression: boolean;
  /** Development server: the client's error page may show message and stack. */
  readonly development: boolean;
  /** A status's words in the request's language (the status page's): a boundary's `statusText`, a late status's view. */
  readonly statusWords: StatusWords;
  /** Development only: inline script that reloads the page after a rebuild. */
  readonly liveReloadScript: string | undefined;
  /** Analytics script URLs for the document head (docs/observability.md). */
  readonly analyticsSources: readonly string[];
  /** The headers of every document (document-headers.ts). */
  readonly headers: DocumentHeaders;
  /** Hears the time to shell of every page, e.g. for metrics. */
  readonly onShellReady: ((route: string, seconds: number) => void) | undefined;
}

/** What a route's documents share, worked out once (page-handler.tsx). */
export interface DocumentRoute {
  readonly path: string;
  /** The layouts around the page, outermost first, then the page: what each level renders. */
  readonly branch: readonly Omit<BranchLevel, 'data'>[];
  /** The head while a route's ErrorBoundary shows instead of the page (page-head.ts). */
  readonly failedHead: (failure: RouteFailure) => ResolvedHead;
  /** Whether a level of the branch has an `ErrorBoundary`: only then does a render note the boundaries it reaches. */
  readonly hasBoundary: boolean;
  /** Set when the page hydrates: the script that loads its code. */
  readonly bootstrapScriptContent: string | undefined;
  /** The page's stylesheets (docs/styles.md): inline when `css` is there, else linked. */
  readonly styles: readonly PageStylesheet[];
  /** The route table for navigation, the same on every page (data-stream.ts). */
  readonly navigationScript: string | undefined;
}

/** One request's side of the document. */
export interface DocumentRequest {
  readonly req: Request;
  readonly res: Response;
  readonly next: NextFunction;
  readonly lifecycle: PageLifecycle;
  /** When the request arrived (`performance.now()`), for the time to shell. */
  readonly started: number;
}

/**
 * The page's data in the document: the initial value in the head, each deferred value's script
 * after `#root` as it settles (deferred-scripts.tsx). Only a page that hydrates has any.
 */
interface EmbeddedData {
  readonly stream: DataStream;
  readonly chain: ScriptChain | undefined;
}

function embedData(page: PreparedPage, route: DocumentRoute, { req, res }: DocumentRequest): EmbeddedData | undefined {
  if (route.bootstrapScriptContent === undefined) return undefined;
  // Nothing deferred: the data is written at once, and nothing follows it.
  if (!page.deferred.hasPending) return { stream: settledDataStream(page.pageData, route.navigationScript), chain: undefined };
  const chain = createScriptChain(res.locals.cspNonce);
  const stream = createDataStream(page.pageData, {
    fixed: route.navigationScript,
    onScript: (script) => chain.push(script),
    onDone: () => chain.end(),
    // seroval could not write a value the check let through: logged; the page ends when React does.
    onError: (error) => {
      logServerError(req, error);
      chain.end();
    },
  });
  res.on('close', () => stream.dispose());
  return { stream, chain };
}

/**
 * Writes the document's head, then pipes React into the response (compressed when the client
 * accepts it). A status helper called before this point makes the status page instead; HEAD
 * ends with the head.
 */
function sendDocument(page: PreparedPage, route: DocumentRoute, request: DocumentRequest, settings: DocumentSettings, react: RenderedDocument): void {
  const { req, res, next, lifecycle, started } = request;
  if (!lifecycle.answering()) return;
  const status: HttpError | undefined = lifecycle.status;
  if (status !== undefined) {
    react.abort(new RenderNotNeededError('the page ends in a status page'));
    // A route's ErrorBoundary shows the status inside the layouts; without one, its status page.
    if (react.showInBoundary(status)) return;
    lifecycle.enter('done');
    next(status);
    return;
  }
  const shellSeconds = (performance.now() - started) / 1000;
  settings.onShellReady?.(route.path, shellSeconds);
  const encoding = settings.compression ? negotiateEncoding(req) : undefined;
  // The form token's cookie rides in the head, unless the page set cookies of its own (in
  // `data()`, or on the response in getLoadContext): the head's would replace them (Node's
  // writeHead), so it joins them instead.
  const { answer } = page;
  try {
    for (const own of answer.cookies) res.append('Set-Cookie', own);
    let cookie = page.form?.setCookie;
    if (cookie !== undefined && res.hasHeader('Set-Cookie')) {
      res.append('Set-Cookie', cookie);
      cookie = undefined;
    }
    writePreparedHead(res, answer.status, settings.headers(encoding, req.id, res.locals.cspNonce, shellSeconds * 1000, cookie, answer));
  } catch (error) {
    // Node refused a header the route gave (a value HTTP cannot carry): this runs in React's
    // callback, where a throw would answer nothing. Nothing was sent: the 500 page answers.
    react.abort(new RenderNotNeededError('the page ends in a status page'));
    lifecycle.enter('done');
    next(error);
    return;
  }
  if (req.method === 'HEAD') {
    lifecycle.enter('done');
    res.end();
    react.abort(new RenderNotNeededError('HEAD needs no body'));
    return;
  }
  lifecycle.enter('streaming');
  react.pipeInto(encoding === undefined ? res : compressInto(res, encoding));
}

/** The branch with this request's data at each level. */
export function branchOf(page: PreparedPage, route: DocumentRoute): BranchLevel[] {
  const last = route.branch.length - 1;
  return route.branch.map((level, index) => ({ ...level, data: index === last ? page.data : page.layoutData[index] }));
}

interface RenderedDocument {
  abort(reason: unknown): void;
  pipeInto(target: PageTarget): void;
  /** Renders the document again with the deepest route ErrorBoundary the render reached showing `cause`; false when there is none. */
  showInBoundary(cause: unknown): boolean;
}

/**
 * The page again, with the boundary at level `at` showing what its render threw: the status and
 * log line its status page would have had, and the same in the data the browser hydrates from.
 */
function withBoundaryShown(
  page: PreparedPage,
  route: DocumentRoute,
  req: Request,
  at: number,
  cause: unknown,
  { development, statusWords }: DocumentSettings,
): PreparedPage | undefined {
  const failure = routeFailureAt(req, at, cause, development, statusWords);
  if (failure === undefined) return undefined;
  return {
    ...page,
    failure,
    head: route.failedHead(failure),
    answer: { ...page.answer, status: failure.status },
    pageData: { ...page.pageData, failure: { at, error: failure.error } },
  };
}

/** The branch React renders, and what the render tells about it. */
interface WatchedBranch {
  readonly levels: readonly BranchLevel[];
  readonly onBoundaryReached: ((level: number) => void) | undefined;
  /** The deepest level with an ErrorBoundary the render has reached (route-tree.tsx); none once one shows. */
  deepestBoundaryReached(): number | undefined;
  /** Development only: names a layout that rendered no <Outlet /> (outlet-check.tsx). */
  readonly outlets: OutletCheck | undefined;
}

function watchBranch(page: PreparedPage, route: DocumentRoute, development: boolean): WatchedBranch {
  let reached: number | undefined;
  const onBoundaryReached =
    page.failure === undefined && route.hasBoundary
      ? (level: number) => {
          reached = Math.max(reached ?? level, level);
        }
      : undefined;
  const outlets = development && page.failure === undefined ? checkOutlets(branchOf(page, route)) : undefined;
  return { levels: outlets?.levels ?? branchOf(page, route), onBoundaryReached, deepestBoundaryReached: () => reached, outlets };
}

/** The document React renders: the head, the page inside its layouts, the data scripts. */
function documentElement(
  page: PreparedPage,
  route: DocumentRoute,
  nonce: string,
  settings: DocumentSettings,
  embedded: EmbeddedData | undefined,
  tree: WatchedBranch,
  location: Location,
): ReactElement {
  return (
    <PageDocument
      head={page.head}
      nonce={nonce}
      styles={route.styles}
      dataScript={embedded?.stream.initial}
      liveReloadScript={settings.liveReloadScript}
      analyticsSources={settings.analyticsSources}
      afterRoot={embedded?.chain?.element}
    >
      <AppRoot showErrorDetail={settings.development} formToken={page.form?.token}>
        <RouteTree
          levels={tree.levels}
          params={page.params}
          actionData={page.action?.data}
          location={location}
          failure={page.failure}
          viewKey={0}
          onBoundaryReached={tree.onBoundaryReached}
        />
      </AppRoot>
    </PageDocument>
  );
}

/**
 * Streams the page's document (docs/rendering.md): browsers get the shell as soon as it is
 * ready and boundaries as they resolve; crawlers get the whole document at once.
 */
export function streamDocument(page: PreparedPage, route: DocumentRoute, request: DocumentRequest, settings: DocumentSettings): void {
  const { req, lifecycle } = request;
  const nonce = request.res.locals.cspNonce;
  const embedded = embedData(page, route, request);
  const bot = isCrawler(req.get('user-agent'));
  const tree = watchBranch(page, route, settings.development);
  let stopped = false;
  const stopRender = (reason: unknown) => {
    stopped = true;
    abort(reason);
  };
  const { pipe, abort } = renderToPipeableStream(documentElement(page, route, nonce, settings, embedded, tree, pageLocation(req)), {
    nonce,
    ...(route.bootstrapScriptContent === undefined ? {} : { bootstrapScriptContent: route.bootstrapScriptContent }),
    onError(error) {
      if (isRenderStopReason(error)) return lifecycle.timeoutDigest;
      // A deferred value's rejection, already logged: the boundary carries its digest.
      if (error instanceof DeferredDataError) return error.digest;
      // notFound() and friends: before anything is sent the page ends in that status page;
      // after the shell the boundary's digest names the status (shared/views/error-boundary.tsx).
      if (isHttpError(error) && error.status < 500) {
        return lifecycle.statusCalled(error, 'render') || !lifecycle.streaming ? undefined : statusDigest(error.status, settings.statusWords(req, error.status));
      }
      // Becomes the boundary's digest in the HTML; the same digest is in the log line.
      return logServerError(req, error);
    },
    // React calls these inside its own async context; the answer is written outside it, so
    // nothing the response arms as it finishes keeps the render alive (outside-render-context.ts).
    onShellReady() {
      if (!bot) outsideRenderContext(() => sendDocument(page, route, request, settings, react));
    },
    onAllReady() {
      // Not after a stop (HEAD, a status page, a departed client) or the timeout, which rejects
      // what was pending: what the render never reached is no layout's fault.
      if (!stopped && lifecycle.timeoutDigest === undefined) tree.outlets?.report(req, route.path);
      outsideRenderContext(() => {
        // A crawler's document, or whatever the render timeout left; a browser already has its shell.
        sendDocument(page, route, request, settings, react);
        // The timer stays until the response closes: delivery can still stall.
        lifecycle.enter('delivering');
      });
    },
    onShellError(error) {
      // Unless the client is gone, Express answers: a status page, or 500 with its error line.
      // A deferred value the shell read stands for what it failed with, logged already.
      const cause = page.causeOf(error);
      outsideRenderContext(() => {
        if (react.showInBoundary(cause)) return;
        if (lifecycle.enter('done')) request.next(cause);
      });
    },
  });
  const react: RenderedDocument = {
    abort: stopRender,
    pipeInto: (target) => void pipe(new ReactDestination(target)),
    showInBoundary(cause) {
      const reached = tree.deepestBoundaryReached();
      if (reached === undefined || !lifecycle.nothingSent) return false;
      const shown = withBoundaryShown(page, route, req, reached, cause, settings);
      if (shown === undefined) return false;
      // The status a helper asked for is the boundary's now, not a status page's.
      lifecycle.statusShownByBoundary();
      embedded?.stream.dispose();
      streamDocument(shown, route, request, settings);
      return true;
    },
  };
  lifecycle.stopsRender(stopRender);
}
