import { ServerResponse, type OutgoingHttpHeaders } from 'node:http';
import type { Express, Response } from 'express';

export type HeaderPair = readonly [name: string, value: string];

const PREPARED = Symbol('a complete answer head');

/** Who a prepared head is for: every answer of a kind (it cannot hold a request's id), or one answer, whose id it holds. */
type PreparedFor = 'every answer' | 'one answer';

/**
 * Every header of an answer, as the flat `[name, value, ...]` list Node's `writeHead` takes:
 * built once for answers that are the same for every request (status pages, built files), so
 * writing one sets no header by header; the request id is added as the head is written. A
 * document's is made for its one answer and holds the id already.
 */
export type PreparedHead = readonly string[] & { readonly [PREPARED]: PreparedFor };

/**
 * `pairs` after `head`, then the request id if given, flat, marked as a complete head: one array
 * of its final length, filled in place (a document's is made per request: copying, then growing,
 * then copying again a list of some forty strings would make it three times).
 */
function prepared(head: readonly string[], pairs: readonly HeaderPair[], requestId?: string): PreparedHead {
  const list = new Array<string>(head.length + pairs.length * 2 + (requestId === undefined ? 0 : 2));
  for (let index = 0; index < head.length; index += 1) list[index] = head[index] as string;
  let at = head.length;
  for (const [name, value] of pairs) {
    list[at] = name;
    list[at + 1] = value;
    at += 2;
  }
  if (requestId !== undefined) {
    list[at] = 'X-Request-Id';
    list[at + 1] = requestId;
  }
  (list as string[] & { [PREPARED]?: PreparedFor })[PREPARED] = requestId === undefined ? 'every answer' : 'one answer';
  return list as unknown as PreparedHead;
}

export function prepareHead(pairs: readonly HeaderPair[]): PreparedHead {
  return prepared([], pairs);
}

/** The head of one answer: `head`, the answer's own headers, then its request id. */
export function extendHead(head: PreparedHead, pairs: readonly HeaderPair[], requestId: string): PreparedHead {
  return prepared(head, pairs, requestId);
}

/** Writes an answer's status and prepared head; its body follows with `res.end()`. */
export function writePreparedHead(res: Response, status: number, head: PreparedHead): void {
  res.writeHead(status, head as unknown as string[]);
}

/** An answer's own headers, kept on its response until its head is written (setAnswerHead). */
const ANSWER_HEAD = Symbol("the answer's own headers");

interface WithAnswerHead {
  [ANSWER_HEAD]?: readonly string[];
}

/**
 * Gives an answer whose body Node will write (`res.end(body)`, or a pipe) its own headers as
 * one flat `[name, value, ...]` list, in the order they go: when Node writes the head, they are
 * written with the request id and the security headers as one list, as a prepared head is, where
 * each set one by one would be checked and stored on the response, then checked again as the
 * head is made. Node still counts the length of a body ended at once (`Content-Length`) and
 * frames any other, as for headers set one by one. Only for a response with no header set yet
 * (false otherwise: the caller sets its own one by one), and only for headers the framework
 * does not keep for itself (app-headers.ts leaves those out), so none replaces the id or a
 * security header. `res.getHeader()` does not see them.
 */
export function setAnswerHead(res: Response, pairs: readonly string[]): boolean {
  if (res.getHeaderNames().length > 0) return false;
  (res as unknown as WithAnswerHead)[ANSWER_HEAD] = pairs;
  return true;
}

function isPrepared(headers: unknown): headers is PreparedHead {
  return Array.isArray(headers) && (headers as Partial<PreparedHead>)[PREPARED] !== undefined;
}

export interface ResponseHeadOptions {
  /** What every answer carries unless it set a header of the same name itself. */
  readonly defaults: readonly HeaderPair[];
  /** The Content-Security-Policy of an answer that sets none, for the request's nonce. */
  readonly policy: (nonce: string) => string;
  /**
   * Whether answers now close their connection (shutdown has begun: lifecycle/readiness.ts). Asked
   * as each head is written, not as its request arrived, so an answer to a request that came
   * before the signal does not promise keep-alive on a connection about to be swept.
   */
  readonly closing: () => boolean;
}

type WriteHead = (statusCode: number, reasonOrHeaders?: string | OutgoingHttpHeaders | readonly string[], headers?: OutgoingHttpHeaders | readonly string[]) => ServerResponse;

/**
 * The headers of every answer of the app are completed when its head is written, the one
 * moment every answer passes through (Node's own `res.end()`, `res.write()` and
 * `res.flushHeaders()` call `writeHead` too): the request id (docs/observability.md), then
 * helmet's headers, our Permissions-Policy and the page Content-Security-Policy with the
 * request's nonce (docs/security.md), each unless the answer set its own; once shutdown has
 * begun, `Connection: close` (docs/deployment.md). An answer with a prepared head already holds
 * all but the request id (a document's holds that too), and is written as one list.
 *
 * Written then rather than stamped on every response as a request arrives: most answers bring
 * their own complete head (a page's, a file's, a status page's), and headers set one by one
 * beforehand send Node's writeHead down its slow path, which merges them with the list. This is
 * the one place the framework goes around Express and Node, kept for what it saves, measured and
 * guarded by test/unit/dependency-seams.test.ts (docs/design-costs.md#where-the-framework-goes-around-a-dependency).
 * The method is Express's per-app response prototype's, so no response is touched and other
 * apps in the same process keep Node's.
 */
export function installResponseHead(app: Express, { defaults, policy, closing }: ResponseHeadOptions): void {
  const writeHead = ServerResponse.prototype.writeHead as WriteHead;
  const response = app.response as unknown as { writeHead: WriteHead };
  const flatDefaults = defaults.flat();
  /**
   * The complete head of an answer that brings its own list: a prepared head (all but the
   * request id, or all of it for one answer), or the answer's own headers (setAnswerHead) with
   * what headers set one by one would get below, in the same order. Undefined when the answer
   * set its headers one by one. Node's own res.end() and res.write() pass no headers; an answer
   * with its own list and a header set since (none should be) takes the one-by-one way.
   */
  function completeHead(res: Response, given: OutgoingHttpHeaders | readonly string[] | undefined, id: string | undefined): readonly string[] | undefined {
    if (isPrepared(given)) {
      const complete = id === undefined || given[PREPARED] === 'one answer' ? given : [...given, 'X-Request-Id', id];
      return closing() ? [...complete, 'Connection', 'close'] : complete;
    }
    const own = (res as unknown as WithAnswerHead)[ANSWER_HEAD];
    if (given !== undefined || own === undefined || res.getHeaderNames().length > 0) return undefined;
    const list = [...own];
    if (id !== undefined) list.push('X-Request-Id', id);
    if (closing()) list.push('Connection', 'close');
    for (const item of flatDefaults) list.push(item);
    list.push('Content-Security-Policy', policy(res.locals.cspNonce));
    return list;
  }
  response.writeHead = function writeHeadCompleted(this: Response, statusCode, reasonOrHeaders, headers) {
    if (this.headersSent) return writeHead.call(this, statusCode, reasonOrHeaders, headers);
    const id = this.req.id;
    const complete = completeHead(this, typeof reasonOrHeaders === 'string' ? headers : reasonOrHeaders, id);
    if (complete !== undefined) {
      return typeof reasonOrHeaders === 'string' ? writeHead.call(this, statusCode, reasonOrHeaders, complete) : writeHead.call(this, statusCode, complete);
    }
    // Headers passed to writeHead itself replace these, as Node merges them.
    if (id !== undefined) this.setHeader('X-Request-Id', id);
    if (closing()) this.setHeader('Connection', 'close');
    for (const [name, value] of defaults) {
      if (!this.hasHeader(name)) this.setHeader(name, value);
    }
    if (!this.hasHeader('Content-Security-Policy')) this.setHeader('Content-Security-Policy', policy(this.locals.cspNonce));
    return writeHead.call(this, statusCode, reasonOrHeaders, headers);
  };
}
