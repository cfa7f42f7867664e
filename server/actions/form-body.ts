import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { HttpError } from '../../shared/api/http-error.ts';
import { hasBody, watchBodyCutShort } from '../http/body-limit.ts';

/**
 * The largest body an action accepts (docs/building-an-app.md, "Forms and actions"): 64 KiB, far
 * above any form of text fields, far below what would let a client hold much memory. Over it:
 * 413, the body unread beyond the limit, the connection closed.
 */
export const ACTION_BODY_LIMIT_BYTES = 64 * 1024;

/**
 * The most fields an urlencoded body may hold: far more than any form has, few enough that a
 * small body of empty fields cannot make the parser build a large object. Over it: 413, as for
 * bytes (body-parser's own answer to `parameterLimit`, which it counts before parsing).
 */
export const ACTION_FIELD_LIMIT = 1_000;

const URLENCODED = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const MULTIPART = 'multipart/form-data';

/**
 * Reads an action's body with Express's own parsers: `application/x-www-form-urlencoded`
 * (what a `<form method="post">` sends; repeated fields become arrays) or `application/json`
 * (an object), and `multipart/form-data` when the app takes uploads (`multipart`,
 * multipart-body.ts). Any other type, multipart without uploads, and any `Content-Encoding`: 415.
 * A body that does not parse, or JSON that is not an object: 400. No body: `{}`.
 *
 * Bodies are counted as they arrive (as server/http/body-limit.ts does for telemetry): a
 * declared length over the limit gets 413 before anything is read, and a chunked body gets it
 * at the first byte past the limit. The parsers alone would answer only after reading off the
 * rest of an oversized body, which for an endless chunked body is never. An answer given
 * before the body's end closes the connection (closeConnectionUnlessBodyRead).
 */
export function createFormBodyParser(limitBytes: number = ACTION_BODY_LIMIT_BYTES, multipart?: RequestHandler): RequestHandler {
  // Made on the first post, which many instances never get, rather than with every app.
  let parsers: ReadonlyArray<readonly [string, RequestHandler]> | undefined;
  function bodyParsers(): ReadonlyArray<readonly [string, RequestHandler]> {
    // `inflate: false`: browsers never compress what they post, and a compressed body would
    // get past the byte count above and be inflated in memory.
    parsers ??= [
      [URLENCODED, express.urlencoded({ extended: false, limit: limitBytes, parameterLimit: ACTION_FIELD_LIMIT, inflate: false, type: URLENCODED })],
      [JSON_TYPE, express.json({ limit: limitBytes, inflate: false, type: JSON_TYPE })],
    ];
    return parsers;
  }

  return function parseFormBody(req: Request, res: Response, next: NextFunction) {
    if (!hasBody(req)) {
      req.body = {};
      next();
      return;
    }
    if (multipart !== undefined && typeof req.is(MULTIPART) === 'string') {
      multipart(req, res, next);
      return;
    }
    const parser = bodyParsers().find(([type]) => typeof req.is(type) === 'string')?.[1];
    if (parser === undefined) {
      next(new HttpError(415));
      return;
    }
    if (Number(req.headers['content-length'] ?? 0) > limitBytes) {
      next(new HttpError(413));
      return;
    }

    let done = false;
    let received = 0;
    function finish(error?: unknown): void {
      if (done) return;
      done = true;
      req.off('data', count);
      stopWatching();
      next(error);
    }
    // The client stopped sending before the body's end, or the request deadline passed first:
    // the parser would wait for the rest.
    const stopWatching = watchBodyCutShort(req, (status) => finish(new HttpError(status)));
    // Added before the parser's own listener, in the same tick: it sees every chunk first.
    function count(chunk: Buffer): void {
      received += chunk.length;
      if (received > limitBytes) finish(new HttpError(413));
    }
    req.on('data', count);
    parser(req, res, function parsed(error?: unknown) {
      // Stryker disable next-line ConditionalExpression: equivalent, body-parser calls back with an error or with nothing, never null
      if (error !== undefined && error !== null) {
        finish(error);
        return;
      }
      const body: unknown = req.body;
      // `null`, an array, or nothing parsed: not a form.
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent but for the array test; urlencoded gives an object, and strict express.json an object or an array
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        finish(new HttpError(400));
        return;
      }
      finish();
    });
  };
}
