import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { renderToPipeableStream } from 'react-dom/server';
import { AppRoot } from '../../shared/app-root.tsx';
import type { SiteHead } from '../../shared/head.ts';
import { isHttpError, type HttpError } from '../../shared/http-error.ts';
import { NAVIGATION_HEADER, NAVIGATION_SCOPE, NAVIGATION_SCOPE_HEADER } from '../../shared/navigation.ts';
import type { ClientRoute, EmbeddedPageData } from '../../shared/page-data.ts';
import { statusDigest } from '../../shared/server-digests.ts';
import type { RouteDefinition } from '../../shared/route-definition.ts';
import { untilAborted } from './abortable.ts';
import { bootstrapScript, type ClientAssets } from './client-assets.ts';
import { compressInto, negotiateEncoding } from './compression.ts';
import { createDataStream, fixedDataScript, type DataStream } from './data-stream.ts';
import { deferData, DeferredDataError, type DeferredData } from './deferred-data.ts';
import type { DocumentHeaders } from './document-headers.ts';
import { isCrawler } from './is-crawler.ts';
import { PageDocument } from './page-document.tsx';
import { createHeadFor } from './page-head.ts';
import { ClientDisconnectedError, RenderNotNeededError, RenderTimeoutError, isRenderStopReason } from './render-errors.ts';
import { canEnter, isSettled, type RenderPhase } from './render-phase.ts';
import { createLoadContext, type GetLoadContext } from './request-context.ts';
import { normalizeParams } from './route-params.ts';
import { outsideRenderContext } from './outside-render-context.ts';
import { sendPageData } from './page-data-response.ts';
import { createScriptInjector, type ScriptInjector } from './script-injector.ts';
import { createDigest } from '../errors/digest.ts';
import type { FormToken } from '../security/csrf.ts';
import { writePreparedHead } from '../lifecycle/response-head.ts';
import { logServerError } from '../errors/server-error-log.ts';

export interface PageHandlerOptions {
  /** After this long the render is aborted and pending boundaries render on the client. */
  readonly renderTimeoutMs: number;
  readonly assets: ClientAssets | undefined;
  /** Development only: inline script that reloads the page after a rebuild. */
  readonly liveReloadScript: string | undefined;
  /** Analytics script URLs for the document head (docs/observability.md). */
  readonly analyticsSources: readonly string[];
  /** Tells the page to report web vitals and client errors (docs/observability.md). */
  readonly telemetry: boolean;
  /** Development server: the client's error page may show message and stack. */
  readonly development: boolean;
  /** Hears the time to shell of every page, e.g. for metrics. */
  readonly onShellReady: ((route: string, seconds: number) => void) | undefined;
  /** gzip or brotli when the client accepts it; off where a proxy compresses instead. */
  readonly compression: boolean;
  /** Absolute URLs (the request's, canonical, Open Graph) come from here, never from `Host`. */
  readonly publicOrigin: URL | undefined;
  /** The app's per-request value for `load`; `{}` without one. */
  readonly getLoadContext: GetLoadContext | undefined;
  /** App-wide head defaults: the site's name and description. */
  readonly site: SiteHead;
  /** The routes a browser may navigate to in place (client-routes.ts), for hydrating pages. */
  readonly clientRoutes: readonly ClientRoute[];
  /** The request's form token when the app has actions, with the cookie to set when it had none (csrf.ts). */
  readonly formToken: ((req: Request) => FormToken) | undefined;
  /** The headers of every document (document-headers.ts). */
  readonly documentHeaders: DocumentHeaders;
}

/**
 * Streams one route's page (docs/rendering.md): `load` first, then `renderToPipeableStream`. Browsers get
 * the shell as soon as it is ready and boundaries as they resolve; crawlers get the whole
 * document at once. One timer bounds the request and is cleared however it ends; a client
 * that goes away aborts the render and is logged as an abort, never as an error.
 */
export function createPageHandler(route: RouteDefinition, options: PageHandlerOptions): RequestHandler {
  const { renderTimeoutMs, assets, liveReloadScript, analyticsSources, telemetry, development, onShellReady, compression } = options;
  const { publicOrigin, getLoadContext, site, clientRoutes, formToken, documentHeaders } = options;
  const pageAssets = route.page === undefined ? undefined : assets?.routes.get(route.path);
  if (route.page !== undefined && assets !== undefined && pageAssets === undefined) {
    throw new Error(`Route ${route.path}: its page module is not in the client build (run npm run build)`);
  }
  const bootstrapScriptContent = pageAssets === undefined ? undefined : bootstrapScript(pageAssets);
  // The route table for navigation is the same on every page: written once (data-stream.ts).
  const navigationScript = clientRoutes.length === 0 ? undefined : fixedDataScript('navigation', clientRoutes);
  // Most heads depend neither on the data nor on the path: worked out once, not per request (page-head.ts).
  const headFor = createHeadFor(route, { site, publicOrigin });
  const Page = route.component;

  return async function renderPage(req: Request, res: Response, next: NextFunction) {
    const started = performance.now();
    res.locals.routePattern = route.path;
    const nonce = res.locals.cspNonce;
    // Only pages with a `load` need a signal.
    const loadSignal = route.load === undefined ? undefined : new AbortController();
    let abortRender: ((reason: unknown) => void) | undefined;
    // The one value that says where this response stands (render-phase.ts).
    let phase: RenderPhase = 'loading';

    /** The only place the phase changes. The timer goes as soon as nothing is left to bound. */
    function enter(to: RenderPhase): boolean {
      if (!canEnter(phase, to)) return false;
      phase = to;
      if (isSettled(to)) clearTimeout(timer);
      return true;
    }

    /** Stops `load` and the render for good: the client is gone, or no longer reads. */
    function abandon(reason: ClientDisconnectedError | RenderTimeoutError): boolean {
      if (!enter('abandoned')) return false;
      loadSignal?.abort(reason);
      abortRender?.(reason);
      return true;
    }

    /** What was written is not draining: ended but unflushed, or waiting on 'drain'. */
    function clientStalled(): boolean {
      return res.writableEnded ? !res.writableFinished : res.writableNeedDrain;
    }

    // Set once the data is loaded: rejects deferred values still pending; says whether there were any.
    let stopDeferred: ((digest: string) => boolean) | undefined;
    // The render timeout's one event: its warning line and the error views of pending values share it.
    let timeoutDigest: string | undefined;
    // The first status helper called before anything was sent (while rendering, or in a deferred
    // value): the page ends in its status page.
    let pageStatus: HttpError | undefined;

    /**
     * Rejects what is still pending with the timeout's digest, then lets React stop: the
     * rejections' scripts are written first (they settle in microtasks, before the abort).
     */
    function stopAtTimeout(timeout: RenderTimeoutError): void {
      timeoutDigest = createDigest();
      stopDeferred?.(timeoutDigest);
      setImmediate(() => abortRender?.(timeout));
    }

    // Bounds the whole response: the render, and the delivery of what it wrote.
    const timer = setTimeout(function renderTimedOut() {
      const timeout = new RenderTimeoutError(renderTimeoutMs);
      switch (phase) {
        case 'loading':
          // `load` fails with the timeout and Express answers the 500 page. Its error line,
          // carrying the digest the visitor sees, is this event's only line.
          loadSignal?.abort(timeout);
          return;
        case 'rendering':
          // Nothing sent yet: React completes the document with fallbacks for what is pending
          // (sent when it calls back, see sendDocument), or fails the shell (Express: 500).
          enter('cut-short');
          stopAtTimeout(timeout);
          return;
        case 'streaming': {
          const stalled = clientStalled();
          // Pending boundaries fall back to client rendering; a client that stopped reading
          // would hold the socket and the buffered page forever.
          if (!stalled) stopAtTimeout(timeout);
          req.log.warn({ route: route.path, timeoutMs: renderTimeoutMs, clientStalled: stalled, digest: timeoutDigest ?? null }, 'render timed out');
          if (stalled && abandon(timeout)) res.destroy();
          return;
        }
        case 'delivering':
          if (clientStalled()) {
            req.log.info({ route: route.path, timeoutMs: renderTimeoutMs }, 'client stopped reading: connection closed');
            if (abandon(timeout)) res.destroy();
            return;
          }
          // React is done, but deferred values no component reads are still on their way.
          timeoutDigest = createDigest();
          if (stopDeferred?.(timeoutDigest)) req.log.warn({ route: route.path, timeoutMs: renderTimeoutMs, digest: timeoutDigest }, 'render timed out');
          return;
        default:
          // cut-short, done, abandoned: already stopped, or the timer was cleared.
          return;
      }
    }, renderTimeoutMs);
    res.once('close', function onResponseClosed() {
      clearTimeout(timer);
      if (res.writableFinished) enter('done');
      else if (abandon(new ClientDisconnectedError())) req.log.info({ route: route.path }, 'render aborted: client disconnected');
    });

    const params = normalizeParams(req.params);
    let loaded: unknown;
    if (route.load !== undefined && loadSignal !== undefined) {
      try {
        const signal = loadSignal.signal;
        const context = getLoadContext === undefined ? {} : await untilAborted(getLoadContext(req, res), signal);
        loaded = await untilAborted(route.load(createLoadContext(req, { params, signal, context, publicOrigin })), signal);
      } catch (error) {
        // A client that went away needs no answer; otherwise Express gives the status page of a
        // helper, or the 500 page of a throw or of the render timeout.
        if (enter('done')) throw error;
        return;
      }
    }
    if (!enter('rendering')) return;

    // What each deferred value's rejection stands for, should it fail the shell (onShellError).
    const rejectionCauses = new WeakMap<DeferredDataError, unknown>();

    /** A deferred value's rejection: logged once here; the page gets only its digest. */
    function deferredRejected(error: unknown): DeferredDataError {
      if (isHttpError(error) && error.status < 500) {
        // Nothing sent yet (a crawler waits for the whole document; a shell that reads the
        // value waits for it): the status line can still say it, as for a helper called
        // while rendering (statusFromRender).
        if (canEnter(phase, 'streaming')) pageStatus ??= error;
        else req.log.warn({ route: route.path, status: error.status }, 'status helper called in a deferred value');
        const rejection = new DeferredDataError(statusDigest(error.status));
        rejectionCauses.set(rejection, error);
        return rejection;
      }
      // The client went away or the timeout stopped `load`: expected, and logged as such.
      if (isRenderStopReason(error)) return new DeferredDataError(timeoutDigest ?? '');
      const digest = logServerError(req, error);
      const rejection = new DeferredDataError(digest, development && error instanceof Error ? { message: error.message, stack: error.stack } : undefined);
      rejectionCauses.set(rejection, error);
      return rejection;
    }
    // A form post shown again (its action's status and result), or the page as asked.
    const action = res.locals.actionResult;
    let deferred: DeferredData<{ readonly data: unknown; readonly actionData: unknown }>;
    try {
      // Checked here when the browser gets the data, so a value it cannot receive is the 500
      // page with one error line, on both paths, before anything is sent (sendable-values.ts).
      deferred = deferData(
        { data: loaded, actionData: action?.data },
        { onRejected: deferredRejected, browser: pageAssets === undefined ? undefined : { development }, path: '' },
      );
    } catch (error) {
      if (enter('done')) throw error;
      return;
    }
    const { data, actionData } = deferred.value;
    stopDeferred = (digest) => {
      if (!deferred.isPending()) return false;
      deferred.rejectPending(new DeferredDataError(digest));
      return true;
    };

    const status = action?.status ?? 200;
    const form = formToken?.(req);
    const token = form?.token;
    const pageData: EmbeddedPageData = {
      data,
      params,
      ...(action === undefined ? {} : { actionData }),
      ...(token === undefined ? {} : { formToken: token }),
      ...(telemetry ? { telemetry: { route: route.path, requestId: String(req.id) } } : {}),
      ...(development ? { development: true } : {}),
    };
    const head = headFor(req, data, params);

    // An in-place navigation asks for the data alone (client/navigation.ts).
    const scope = req.get(NAVIGATION_SCOPE_HEADER);
    if (req.get(NAVIGATION_HEADER) === 'data' && scope !== undefined && NAVIGATION_SCOPE.test(scope)) {
      enter('streaming');
      if (form?.setCookie !== undefined) res.append('Set-Cookie', form.setCookie);
      sendPageData(req, res, {
        status,
        meta: { route: route.path, head, assets: pageAssets ?? null },
        value: pageAssets === undefined ? { data: undefined, params } : pageData,
        compression,
        scope,
        onError: (error) => logServerError(req, error),
      });
      return;
    }

    // Only a page that hydrates needs its data in the document; deferred values follow it there.
    // Every page goes through the injector: React's 4 KiB slices leave as one write per batch
    // (a shell longer than the response's buffer would otherwise leave in two, around a 'drain'),
    // and the deferred values' scripts (only on pages that hydrate) go in between.
    const injector: ScriptInjector = createScriptInjector(nonce);
    if (pageAssets === undefined || !deferred.hasPending) injector.complete();
    const dataStream: DataStream | undefined =
      pageAssets === undefined
        ? undefined
        : createDataStream(pageData, {
            fixed: navigationScript,
            onScript: (script) => injector.inject(script),
            onDone: () => injector.complete(),
            // seroval could not write a value (a class instance, a function): the browser
            // cannot have it. Logged; the page ends when React does.
            onError: (error) => {
              logServerError(req, error);
              injector.complete();
            },
          });
    if (dataStream !== undefined) res.once('close', () => dataStream.dispose());

    const bot = isCrawler(req.get('user-agent'));

    /**
     * notFound() and friends. Before anything is sent, the page ends in that status page. After
     * the shell the status line is gone: the boundary's digest names the status instead, so the
     * client can show that status view (shared/error-boundary.tsx).
     */
    function statusFromRender(error: HttpError): string | undefined {
      if (canEnter(phase, 'streaming')) {
        pageStatus ??= error;
        return undefined;
      }
      // Answered otherwise, or abandoned: nobody will read this boundary.
      if (phase !== 'streaming') return undefined;
      req.log.warn({ route: route.path, status: error.status }, 'status helper called after the shell was sent');
      return statusDigest(error.status);
    }

    /** Sends what React has: the shell for a browser, the whole document for a crawler or after the timeout. */
    function sendDocument(): void {
      if (!canEnter(phase, 'streaming')) return;
      if (phase === 'cut-short') {
        req.log.warn({ route: route.path, timeoutMs: renderTimeoutMs, clientStalled: false, digest: timeoutDigest ?? null }, 'render timed out');
      }
      if (pageStatus !== undefined) {
        // A boundary called notFound() and friends before anything was sent: the page's status wins.
        enter('done');
        abort(new RenderNotNeededError('the page ends in a status page'));
        next(pageStatus);
        return;
      }
      const shellSeconds = (performance.now() - started) / 1000;
      onShellReady?.(route.path, shellSeconds);
      const encoding = compression ? negotiateEncoding(req) : undefined;
      // The form token's cookie rides in the head, unless the page set cookies of its own: the
      // head's would replace them (Node's writeHead), so it joins them instead.
      let cookie = form?.setCookie;
      if (cookie !== undefined && res.hasHeader('Set-Cookie')) {
        res.append('Set-Cookie', cookie);
        cookie = undefined;
      }
      writePreparedHead(res, status, documentHeaders(encoding, nonce, shellSeconds * 1000, cookie));
      if (req.method === 'HEAD') {
        enter('done');
        res.end();
        abort(new RenderNotNeededError('HEAD needs no body'));
        return;
      }
      enter('streaming');
      const destination = encoding === undefined ? res : compressInto(res, encoding);
      // React's pipe() is typed for a stream.Writable; it uses only what ReactDestination has.
      pipe(injector.connect(destination) as unknown as NodeJS.WritableStream);
    }

    const { pipe, abort } = renderToPipeableStream(
      <PageDocument
        head={head}
        nonce={nonce}
        dataScript={dataStream?.initial}
        liveReloadScript={liveReloadScript}
        analyticsSources={analyticsSources}
      >
        <AppRoot showErrorDetail={development} formToken={token}>
          <Page data={data} params={params} {...(action === undefined ? {} : { actionData })} />
        </AppRoot>
      </PageDocument>,
      {
        nonce,
        ...(bootstrapScriptContent === undefined ? {} : { bootstrapScriptContent }),
        onError(error) {
          if (isRenderStopReason(error)) return timeoutDigest;
          // A deferred value's rejection, already logged: the boundary carries its digest.
          if (error instanceof DeferredDataError) return error.digest;
          if (isHttpError(error) && error.status < 500) return statusFromRender(error);
          // Becomes the boundary's digest in the HTML; the same digest is in the log line.
          return logServerError(req, error);
        },
        // React calls these inside its own async context; the answer is written outside it, so
        // nothing the response arms as it finishes keeps the render alive (outside-render-context.ts).
        onShellReady() {
          if (!bot) outsideRenderContext(sendDocument);
        },
        onAllReady() {
          outsideRenderContext(() => {
            // A crawler's document, or whatever the render timeout left; a browser already has its shell.
            sendDocument();
            // The timer stays until the response closes: delivery can still stall.
            enter('delivering');
          });
        },
        onShellError(error) {
          // Unless the client is gone, Express answers: a status page, or 500 with its error line.
          // A deferred value the shell read stands for what it failed with: its status helper, or
          // its error, logged already under the digest Express's 500 page then shows.
          const cause = (error instanceof DeferredDataError ? rejectionCauses.get(error) : undefined) ?? error;
          outsideRenderContext(() => {
            if (enter('done')) next(cause);
          });
        },
      },
    );
    abortRender = abort;
  };
}
