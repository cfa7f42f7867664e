import type { Busboy, BusboyConfig } from 'busboy';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError } from '../../shared/api/http-error.ts';
import { watchBodyCutShort } from '../http/body-limit.ts';
import { ACTION_BODY_LIMIT_BYTES } from './form-body.ts';

/**
 * What an app lets an action receive as `multipart/form-data` (docs/building-an-app.md,
 * "Uploads"). Every cap is counted as bytes arrive; past any of them the post gets the 413 page
 * and nothing more of its body is read.
 */
export interface UploadLimits {
  /** The most bytes one file may hold. Default 1 MiB. */
  readonly maxFileBytes: number;
  /** The most files one post may carry. Default 1. */
  readonly maxFiles: number;
  /** The most fields (the form token included) one post may carry. Default 100. */
  readonly maxFields: number;
  /** The most bytes of the whole body, part headers and boundaries included. Default: room for every file at its cap, and 64 KiB for the rest. */
  readonly maxBodyBytes: number;
}

export const UPLOAD_DEFAULTS = { maxFileBytes: 1024 * 1024, maxFiles: 1, maxFields: 100 } as const;

/** The app's `uploads`, each cap given or its default; a cap that is not a whole number of 0 or more is refused at start. */
export function resolveUploadLimits(given: Partial<UploadLimits>): UploadLimits {
  const maxFileBytes = given.maxFileBytes ?? UPLOAD_DEFAULTS.maxFileBytes;
  const maxFiles = given.maxFiles ?? UPLOAD_DEFAULTS.maxFiles;
  const maxFields = given.maxFields ?? UPLOAD_DEFAULTS.maxFields;
  const maxBodyBytes = given.maxBodyBytes ?? maxFiles * maxFileBytes + ACTION_BODY_LIMIT_BYTES;
  const limits = { maxFileBytes, maxFiles, maxFields, maxBodyBytes };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`uploads.${name} must be a whole number of 0 or more; it is ${value}`);
  }
  return limits;
}

/** A part's value as the action gets it: a field's text, or a file. */
type PartValue = string | File;

/** Repeated names become arrays, as repeated urlencoded fields do; a part without a name (no form sends one) is left out. */
function addPart(parts: Map<string, PartValue | PartValue[]>, name: string | undefined, value: PartValue): void {
  if (name === undefined) return;
  const previous = parts.get(name);
  if (previous === undefined) parts.set(name, value);
  else if (Array.isArray(previous)) previous.push(value);
  else parts.set(name, [previous, value]);
}

type Parse = (config: BusboyConfig) => Busboy;

/**
 * Reads a `multipart/form-data` body with busboy into `req.body`: each field its text, each file
 * a Web `File` held in memory (never written to disk), repeated names arrays. Over a cap of
 * `limits`: 413, the rest of the body unread, the connection closed (closeConnectionUnlessBodyRead).
 * A body that is not multipart as it says (no boundary, a malformed part, no closing boundary) or
 * that the client stops sending before its end: 400; the request deadline passing first: 408.
 * Any `Content-Encoding`: 415, as for the other types.
 */
export function createMultipartBodyParser(limits: UploadLimits): RequestHandler {
  // Loaded as the app is made, and only by an app that takes uploads: every other start saves its 5 ms.
  const loading: Promise<Parse> = import('busboy').then((module) => module.default);

  return function parseMultipartBody(req: Request, _res: Response, next: NextFunction) {
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      next(new HttpError(415));
      return;
    }
    if (Number(req.headers['content-length'] ?? 0) > limits.maxBodyBytes) {
      next(new HttpError(413));
      return;
    }
    loading.then((busboy) => readParts(busboy, req, limits, next), next);
  };
}

/** Feeds the body to busboy, counting its bytes, and answers as createMultipartBodyParser says. */
function readParts(busboy: Parse, req: Request, limits: UploadLimits, next: NextFunction): void {
  let parser: Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // Browsers send file names as UTF-8 bytes; busboy's default reads them as Latin-1.
      defParamCharset: 'utf8',
      // One past each cap: busboy reports a limit when it is reached, and a file of exactly the cap is allowed.
      limits: {
        fileSize: limits.maxFileBytes + 1,
        files: limits.maxFiles,
        fields: limits.maxFields,
        // Stryker disable next-line ArithmeticOperator: equivalent; a field's value is shorter than the body holding it, whose count (count, below) answers 413 past maxBodyBytes first
        fieldSize: limits.maxBodyBytes + 1,
      },
    });
  } catch {
    // No boundary, or a Content-Type busboy cannot read.
    next(new HttpError(400));
    return;
  }

  const parts = new Map<string, PartValue | PartValue[]>();
  let received = 0;
  let done = false;
  function finish(error?: HttpError): void {
    if (done) return;
    done = true;
    // Stryker disable next-line StringLiteral: equivalent; a count after the end can only call finish, which `done` makes do nothing
    req.off('data', count);
    stopWatching();
    if (error === undefined) {
      req.body = Object.fromEntries(parts);
      next();
      return;
    }
    // Nothing more is read or parsed; what was held is let go.
    req.unpipe(parser);
    req.pause();
    parser.destroy();
    next(error);
  }
  function count(chunk: Buffer): void {
    received += chunk.length;
    if (received > limits.maxBodyBytes) finish(new HttpError(413));
  }
  const stopWatching = watchBodyCutShort(req, (status) => finish(new HttpError(status)));

  parser.on('field', function field(name, value, info) {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent; busboy caps no multipart field name, and fieldSize is past maxBodyBytes, which the count (it runs before busboy on each chunk) answers with 413 first
    if (info.valueTruncated || info.nameTruncated) finish(new HttpError(413));
    else addPart(parts, name, value);
  });
  parser.on('file', function file(name, stream, { filename, mimeType }) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => finish(new HttpError(413)));
    // Destroyed with the parser's own error, which the parser reports below.
    stream.on('error', () => undefined);
    stream.on('end', function fileRead() {
      // Stryker disable next-line ConditionalExpression: equivalent; a truncated file has already answered 413 on its 'limit', so the parts it would join are never read
      if (!stream.truncated) addPart(parts, name, new File([Buffer.concat(chunks)], filename ?? '', { type: mimeType }));
    });
  });
  parser.on('filesLimit', () => finish(new HttpError(413)));
  parser.on('fieldsLimit', () => finish(new HttpError(413)));
  // A malformed part header, or the body ended before the closing boundary.
  parser.on('error', () => finish(new HttpError(400)));
  parser.on('close', () => finish());
  // The client went away: there is no one left to answer.
  req.once('error', () => finish(new HttpError(400)));
  req.on('data', count);
  req.pipe(parser);
}
