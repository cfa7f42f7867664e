import type { Request, Response } from 'express';
import type { PageDataMeta } from '../../shared/protocol/page-data.ts';
import { choosePageEncoding, compressInto, type ContentEncoding } from '../http/compression.ts';
import { createDataStream } from './data-stream.ts';
import { NAVIGATION_VARY, type OwnHeaders } from './document-headers.ts';
import { setHtmlHeaders } from '../http/html-headers.ts';
import { isSharedCacheable, setRouteHeaders } from '../security/app-headers.ts';

/** The type of a page's data response: one JSON value a line. */
export const PAGE_DATA_TYPE = 'application/x-ndjson; charset=utf-8';

export interface PageDataAnswer {
  readonly status: number;
  /** The page's own headers and Cache-Control, as on its document (document-headers.ts). */
  readonly own: OwnHeaders;
  /** Which page and head; none for a fetcher's post, answered with the action's result alone (fetcher-answer.ts). */
  readonly meta: PageDataMeta | undefined;
  /** The page's data as the document would embed it; deferred values are promises. */
  readonly value: unknown;
  readonly compression: boolean;
  /** The scope the browser asked its scripts to write into (NAVIGATION_SCOPE). */
  readonly scope: string;
  /** A value seroval could not write; logged by the caller. */
  readonly onError: (error: unknown) => void;
}

/**
 * Whether the browser may show the page again from its memory of recent views, on back and
 * forward, without asking (the meta line's `keep`, docs/navigation.md): only when a shared cache
 * could give the answer to anyone, and without asking the server first (no `no-cache`). One
 * visitor's answer (`private`, every page's default) would show their page to whoever uses the
 * tab after they sign out.
 */
function mayShowAgain(cacheControl: string | undefined): boolean {
  return isSharedCacheable(cacheControl) && !/(?:^|,)\s*no-cache\b/i.test(cacheControl ?? '');
}

/** Where the lines go: the response, or a compressor piped into it. */
interface LineTarget extends NodeJS.WritableStream {
  flush?: (() => void) | undefined;
}

interface LineWriter {
  /** Queues one line; what a turn of the event loop queued leaves in one write and one flush. */
  line(json: unknown): void;
  /** Writes what is queued and ends the answer. */
  end(): void;
  /** The client is gone: nothing more is written. */
  close(): void;
}

/**
 * Lines leave once per turn of the event loop, as the document's scripts do
 * (react-destination.ts): values that settle together (the rows of one query) leave in one
 * write and one compressor flush instead of one each. A full flush per line cost a block
 * header and the compressor's window every time: measured with 20,000 values, 4.6 times the
 * bytes and 7 times the time of the same values in the document.
 */
function createLineWriter(target: LineTarget): LineWriter {
  let queued = '';
  let scheduled = false;
  let open = true;

  function release(): void {
    scheduled = false;
    // Stryker disable next-line LogicalOperator,ConditionalExpression,StringLiteral: equivalent, a release runs after a line was queued, and only end() and close() empty the queue, both shutting it
    if (!open || queued === '') return;
    target.write(queued);
    queued = '';
    target.flush?.();
  }

  return {
    line(json) {
      // Stryker disable next-line ConditionalExpression: equivalent on the wire, a line queued once shut is never released
      if (!open) return;
      queued += `${JSON.stringify(json)}\n`;
      // Stryker disable next-line ConditionalExpression: equivalent on the wire, the turn's first release writes all that is queued and later ones find nothing
      if (scheduled) return;
      // Stryker disable next-line BooleanLiteral: equivalent on the wire, as above
      scheduled = true;
      setImmediate(release);
    },
    // Stryker disable ConditionalExpression,BooleanLiteral,StringLiteral,BlockStatement: equivalent, seroval says it is done once and is disposed on close, so end() runs once with no line after it, and a closed answer drops what it is given
    end() {
      if (!open) return;
      open = false;
      if (queued !== '') target.write(queued);
      queued = '';
      target.end();
    },
    close() {
      open = false;
      queued = '';
    },
    // Stryker restore ConditionalExpression,BooleanLiteral,StringLiteral,BlockStatement
  };
}

/**
 * A page's data for an in-place navigation (client/router.tsx), instead of its document:
 * the first line says which page and head, the next the data, as the script the document
 * would carry; each deferred value follows on its own line as it settles, and the response
 * ends when the last has. Every line is JSON (scripts as JSON strings), so the answer is
 * inert if anything but the navigation runtime reads it.
 */
export function sendPageData(req: Request, res: Response, { status, own, meta, value, compression, scope, onError }: PageDataAnswer): void {
  if (req.method === 'HEAD') {
    // The headers a GET gets, and no body: nothing to wait for, as for the document's HEAD.
    setHeaders(req, res, status, own, compression);
    res.end();
    return;
  }
  // No script comes before the answer has started (seroval writes none synchronously), but
  // seroval may say it is done at once, when nothing is deferred: the answer ends once started.
  let writer: LineWriter | undefined;
  let settled = false;
  function finished(): void {
    settled = true;
    writer?.end();
  }
  // Made before anything is set on the response: if seroval cannot write the value, the throw
  // becomes the 500 answer (page-handler.tsx).
  const stream = createDataStream(
    value,
    {
      onScript: (script) => writer?.line(script),
      onDone: finished,
      onError(error) {
        onError(error);
        finished();
      },
    },
    scope,
  );
  res.on('close', () => {
    writer?.close();
    stream.dispose();
  });
  const encoding = setHeaders(req, res, status, own, compression);
  writer = createLineWriter(encoding === undefined ? res : compressInto(res, encoding));
  if (meta !== undefined) writer.line(mayShowAgain(own.cacheControl) ? { ...meta, keep: true } : meta);
  writer.line(stream.initial);
  if (settled) writer.end();
}

function setHeaders(req: Request, res: Response, status: number, own: OwnHeaders, compression: boolean): ContentEncoding | undefined {
  res.status(status);
  setHtmlHeaders(res);
  res.setHeader('Content-Type', PAGE_DATA_TYPE);
  if (own.cacheControl !== undefined) {
    res.setHeader('Cache-Control', own.cacheControl);
    res.vary(NAVIGATION_VARY);
  }
  setRouteHeaders(res, own.headers);
  return choosePageEncoding(req, res, compression);
}
