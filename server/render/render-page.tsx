import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { renderToPipeableStream } from 'react-dom/server';
import { APP_NAME } from '../../shared/app-info.ts';
import { AppRoot } from '../../shared/app-root.tsx';
import { isHttpError, type HttpError } from '../../shared/http-error.ts';
import type { EmbeddedPageData } from '../../shared/page-data.ts';
import type { RouteDefinition } from '../../shared/route-definition.ts';
import { untilAborted } from './abortable.ts';
import type { ClientAssets } from './client-assets.ts';
import { choosePageEncoding, compressInto } from './compression.ts';
import { serializeForScript } from './embedded-json.ts';
import { setHtmlHeaders } from './html-headers.ts';
import { isCrawler } from './is-crawler.ts';
import { PageDocument } from './page-document.tsx';
import { ClientDisconnectedError, RenderNotNeededError, RenderTimeoutError, isRenderStopReason } from './render-errors.ts';
import { normalizeParams, searchParamsOf } from './route-params.ts';
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
}

function documentTitle(route: RouteDefinition, data: unknown): string {
  const title = typeof route.title === 'function' ? route.title(data) : route.title;
  return title === undefined || title === '' ? APP_NAME : `${title} · ${APP_NAME}`;
}

/**
 * Streams one route's page (docs/rendering.md): `load` first, then `renderToPipeableStream`. Browsers get
 * the shell as soon as it is ready and boundaries as they resolve; crawlers get the whole
 * document at once. One timer bounds the request and is cleared however it ends; a client
 * that goes away aborts the render and is logged as an abort, never as an error.
 */
export function createPageHandler(route: RouteDefinition, options: PageHandlerOptions): RequestHandler {
  const { renderTimeoutMs, assets, liveReloadScript, analyticsSources, telemetry, development, onShellReady, compression } = options;
  const pageAssets = route.page === undefined ? undefined : assets?.pages.get(route.page);
  if (route.page !== undefined && assets !== undefined && pageAssets === undefined) {
    throw new Error(`Route ${route.path}: page "${route.page}" is not in the client build`);
  }
  const bootstrapModules = pageAssets === undefined ? undefined : [pageAssets.script];
  // Most titles do not depend on the data: work them out once, not per request.
  const fixedTitle = typeof route.title === 'function' ? undefined : documentTitle(route, undefined);
  const Page = route.component;

  return async function renderPage(req: Request, res: Response, next: NextFunction) {
    const started = performance.now();
    res.locals.routePattern = route.path;
    const nonce = res.locals.cspNonce;
    // Only pages with a `load` need a signal; the rest just remember why they stopped.
    const loadSignal = route.load === undefined ? undefined : new AbortController();
    let stopped: ClientDisconnectedError | RenderTimeoutError | undefined;
    let abortRender: ((reason: unknown) => void) | undefined;

    function stopRender(reason: ClientDisconnectedError | RenderTimeoutError): void {
      stopped = reason;
      loadSignal?.abort(reason);
      abortRender?.(reason);
    }
    let renderDone = false;
    // Bounds the whole response: the render, and the delivery of what it wrote.
    const timer = setTimeout(function renderTimedOut() {
      // Stalled: what was written is not draining (ended but unflushed, or waiting on 'drain').
      const stalled = res.writableEnded ? !res.writableFinished : res.writableNeedDrain;
      if (!renderDone) {
        req.log.warn({ route: route.path, timeoutMs: renderTimeoutMs, clientStalled: stalled }, 'render timed out');
        stopRender(new RenderTimeoutError(renderTimeoutMs));
      } else if (stalled) {
        req.log.info({ route: route.path, timeoutMs: renderTimeoutMs }, 'client stopped reading: connection closed');
      }
      // A client that stopped reading would hold the socket and the buffered page forever.
      if (stalled) res.destroy();
    }, renderTimeoutMs);
    res.once('close', function onResponseClosed() {
      clearTimeout(timer);
      if (!res.writableFinished && stopped === undefined) {
        req.log.info({ route: route.path }, 'render aborted: client disconnected');
        stopRender(new ClientDisconnectedError());
      }
    });

    const params = normalizeParams(req.params);
    let data: unknown;
    if (route.load !== undefined && loadSignal !== undefined) {
      try {
        const context = { params, searchParams: searchParamsOf(req.originalUrl), signal: loadSignal.signal, requestId: String(req.id) };
        data = await untilAborted(route.load(context), loadSignal.signal);
      } catch (error) {
        clearTimeout(timer);
        if (error instanceof ClientDisconnectedError) return;
        throw error;
      }
    }
    if (stopped !== undefined) return;

    // Only a page that hydrates needs its data in the document.
    const embeddedData =
      pageAssets === undefined
        ? undefined
        : serializeForScript({
            data,
            params,
            ...(telemetry ? { telemetry: { route: route.path, requestId: String(req.id) } } : {}),
            ...(development ? { development: true } : {}),
          } satisfies EmbeddedPageData);

    const bot = isCrawler(req.get('user-agent'));
    let shellSent = false;
    let statusFromRender: HttpError | undefined;

    function sendShell(): void {
      if (shellSent || res.writableEnded || stopped !== undefined) return;
      shellSent = true;
      if (statusFromRender !== undefined) {
        // A boundary called notFound() and friends while the shell rendered: the page's status wins.
        clearTimeout(timer);
        abort(new RenderNotNeededError('the page ends in a status page'));
        next(statusFromRender);
        return;
      }
      const shellSeconds = (performance.now() - started) / 1000;
      onShellReady?.(route.path, shellSeconds);
      res.status(200);
      setHtmlHeaders(res);
      // Browser tools show the server's share of the wait (docs/observability.md).
      res.setHeader('Server-Timing', `shell;desc="React shell";dur=${(shellSeconds * 1000).toFixed(1)}`);
      const encoding = choosePageEncoding(req, res, compression);
      if (req.method === 'HEAD') {
        res.end();
        abort(new RenderNotNeededError('HEAD needs no body'));
        return;
      }
      pipe(encoding === undefined ? res : compressInto(res, encoding));
    }

    const { pipe, abort } = renderToPipeableStream(
      <PageDocument
        title={fixedTitle ?? documentTitle(route, data)}
        nonce={nonce}
        assets={pageAssets}
        embeddedData={embeddedData}
        liveReloadScript={liveReloadScript}
        analyticsSources={analyticsSources}
      >
        <AppRoot showErrorDetail={development}>
          <Page data={data} params={params} />
        </AppRoot>
      </PageDocument>,
      {
        nonce,
        ...(bootstrapModules === undefined ? {} : { bootstrapModules }),
        onError(error) {
          if (isRenderStopReason(error)) return undefined;
          if (isHttpError(error) && error.status < 500) {
            if (!shellSent) statusFromRender ??= error;
            else req.log.warn({ route: route.path, status: error.status }, 'status helper called after the shell was sent');
            return undefined;
          }
          // Becomes the boundary's digest in the HTML; the same digest is in the log line.
          return logServerError(req, error);
        },
        onShellReady() {
          if (!bot) sendShell();
        },
        onAllReady() {
          // The timer stays until the response closes: delivery can still stall.
          renderDone = true;
          if (bot) sendShell();
        },
        onShellError(error) {
          clearTimeout(timer);
          if (error instanceof ClientDisconnectedError || res.writableEnded) return;
          next(error);
        },
      },
    );
    abortRender = abort;
  };
}
