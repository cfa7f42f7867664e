import type { Request, Response } from 'express';
import type { PageDataMeta } from '../../shared/page-data.ts';
import { choosePageEncoding, compressInto, type ContentEncoding } from './compression.ts';
import { createDataStream } from './data-stream.ts';
import { setHtmlHeaders } from './html-headers.ts';

/** The type of a page's data response: one JSON value a line. */
export const PAGE_DATA_TYPE = 'application/x-ndjson; charset=utf-8';

export interface PageDataResponse {
  readonly status: number;
  readonly meta: PageDataMeta;
  /** The page's data as the document would embed it; deferred values are promises. */
  readonly value: unknown;
  readonly compression: boolean;
  /** The scope the browser asked its scripts to write into (NAVIGATION_SCOPE). */
  readonly scope: string;
  /** A value seroval could not write; logged by the caller. */
  readonly onError: (error: unknown) => void;
}

/**
 * A page's data for an in-place navigation (client/navigation.ts), instead of its document:
 * the first line says which page and head, the next the data, as the script the document
 * would carry; each deferred value follows on its own line as it settles, and the response
 * ends when the last has. Every line is JSON (scripts as JSON strings), so the answer is
 * inert if anything but the navigation runtime reads it.
 */
export function sendPageData(req: Request, res: Response, { status, meta, value, compression, scope, onError }: PageDataResponse): void {
  if (req.method === 'HEAD') {
    // The headers a GET gets, and no body: nothing to wait for, as for the document's HEAD.
    setHeaders(req, res, status, compression);
    res.end();
    return;
  }
  let out: NodeJS.WritableStream | undefined;
  let flush: () => void = () => undefined;
  let open = true;
  function line(json: unknown): void {
    // No script can come before the answer has started: seroval writes none synchronously.
    if (!open || out === undefined) return;
    out.write(`${JSON.stringify(json)}\n`);
    flush();
  }
  function end(): void {
    if (!open || out === undefined) return;
    open = false;
    out.end();
  }
  // seroval says it is done synchronously when nothing is deferred: end after the first value.
  let settled = false;
  // Made before anything is set on the response: if seroval cannot write the value, the throw
  // becomes the 500 answer (render-page.ts).
  const stream = createDataStream(value, {
    onScript: line,
    onDone() {
      settled = true;
      end();
    },
    onError(error) {
      onError(error);
      settled = true;
      end();
    },
  }, scope);
  res.once('close', () => {
    open = false;
    stream.dispose();
  });
  const encoding = setHeaders(req, res, status, compression);
  const target = encoding === undefined ? res : compressInto(res, encoding);
  out = target;
  if ('flush' in target && typeof target.flush === 'function') flush = () => target.flush();
  line(meta);
  line(stream.initial);
  if (settled) end();
}

function setHeaders(req: Request, res: Response, status: number, compression: boolean): ContentEncoding | undefined {
  res.status(status);
  setHtmlHeaders(res);
  res.setHeader('Content-Type', PAGE_DATA_TYPE);
  return choosePageEncoding(req, res, compression);
}
