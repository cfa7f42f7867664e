import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError } from '../../shared/api/http-error.ts';

/** RFC 9112 §6.3: a request has a body when it says how it is framed (chunked, or a length above 0). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  // Stryker disable next-line ConditionalExpression: equivalent, Number(undefined) is NaN, which is not above 0
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > 0);
}

/**
 * An answer written before the request's body has been read closes the connection, and says so
 * (RFC 9112 §9.6): the connection could carry another request only once the unread bytes were
 * read off (§9.3), which for a body whose framing is broken is impossible (§6.3), and for an
 * endless chunked body never ends: Node would read and discard gigabytes to keep the connection. Once the body has been read to its end, the connection
 * may be kept again. (`shouldKeepAlive` rather than a header, so an explicit `Connection: close`,
 * such as the one of a draining instance, always stays.)
 */
export function closeConnectionUnlessBodyRead(req: Request, res: Response, next: NextFunction): void {
  if (hasBody(req) && res.shouldKeepAlive) {
    res.shouldKeepAlive = false;
    req.once('end', function bodyRead() {
      // Stryker disable next-line ConditionalExpression: equivalent, Node decides the connection's fate when it writes the head
      if (!res.headersSent) res.shouldKeepAlive = true;
    });
  }
  next();
}

/** Readers of a request's body, to be told when the request deadline passes before its end. */
const deadlineWatchers = new WeakMap<IncomingMessage, () => void>();

/**
 * The request deadline (`REQUEST_TIMEOUT_MS`) passed while `req`'s body was still arriving: tells
 * the reader watching it (watchBodyCutShort), which answers 408 as the app answers everything.
 * False when nothing reads the body that way; the server then closes the connection itself.
 */
export function requestDeadlinePassed(req: IncomingMessage): boolean {
  const watcher = deadlineWatchers.get(req);
  watcher?.();
  return watcher !== undefined;
}

/**
 * Calls `onCut` when the request's body will not be whole: with 400 when the client half-closes
 * before its end (it will send nothing more, and without this its reader would wait for it until
 * the request deadline), with 408 when the request deadline passes first (server/lifecycle/
 * connection-guard.ts says so, through requestDeadlinePassed). Returns the function that stops
 * watching; the body's own end stops it too, so a kept-alive connection carries no listener on to
 * its next request.
 */
export function watchBodyCutShort(req: IncomingMessage, onCut: (status: 400 | 408) => void): () => void {
  const { socket } = req;
  function clientEnded(): void {
    stop();
    if (!req.complete) onCut(400);
  }
  function deadlinePassed(): void {
    stop();
    onCut(408);
  }
  function stop(): void {
    socket.off('end', clientEnded);
    req.off('end', stop);
    deadlineWatchers.delete(req);
  }
  req.once('end', stop);
  deadlineWatchers.set(req, deadlinePassed);
  // The FIN may have been read already, with the head and what came of the body.
  if (socket.readableEnded) queueMicrotask(clientEnded);
  else socket.once('end', clientEnded);
  return stop;
}

/** What the body reader leaves for the handlers after it: the whole body, within the limit. */
interface ReadBody {
  readonly bytes: Buffer;
}

const bodies = new WeakMap<IncomingMessage, ReadBody>();

/** The body `readBodyWithin` read for this request; empty when it had none. */
export function bodyOf(req: IncomingMessage): Buffer {
  return bodies.get(req)?.bytes ?? Buffer.alloc(0);
}

/**
 * Reads the body into memory, counting bytes as they arrive, whatever the framing: a declared
 * `Content-Length` over the limit gets 413 before anything is read, and a chunked body gets it
 * at the first byte past the limit. Reading then stops, and the 413 closes the connection
 * (see closeConnectionUnlessBodyRead). A body parser that reads to the end before answering
 * would read an endless body for ever.
 */
export function readBodyWithin(limitBytes: number): RequestHandler {
  return function readBoundedBody(req: Request, _res: Response, next: NextFunction) {
    // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent, a bodiless request read on ends at once with the same empty body
    if (!hasBody(req)) {
      next();
      return;
    }
    if (Number(req.headers['content-length'] ?? 0) > limitBytes) {
      next(new HttpError(413));
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;

    function stopReading(): void {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', stopReading);
      stopWatching();
      req.pause();
    }
    function onData(chunk: Buffer): void {
      received += chunk.length;
      if (received > limitBytes) {
        stopReading();
        next(new HttpError(413));
        return;
      }
      chunks.push(chunk);
    }
    function onEnd(): void {
      stopReading();
      bodies.set(req, { bytes: Buffer.concat(chunks, received) });
      next();
    }
    req.on('data', onData);
    req.once('end', onEnd);
    // The client went away: there is no one left to answer.
    req.once('error', stopReading);
    // The client stopped sending before the body's end, or the request deadline passed first.
    const stopWatching = watchBodyCutShort(req, function bodyCutShort(status) {
      stopReading();
      next(new HttpError(status));
    });
  };
}
