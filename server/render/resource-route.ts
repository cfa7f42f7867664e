import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Request, Response } from 'express';
import { isDataWithResponseInit } from '../../shared/api/answers.ts';
import type { ResourceRouteDefinition } from '../../shared/api/route-definition.ts';
import { HTML_HEADERS } from '../http/html-headers.ts';
import { logServerError } from '../observability/server-error-log.ts';
import { setAnswerHead } from '../http/response-head.ts';
import { appHeaders, assertNoSharedCookie, setRouteHeaders, type AppHeaders } from '../security/app-headers.ts';
import { forVisitor, unwrapData, type Unwrapped } from './page-answer.ts';
import type { PageLifecycle } from './page-lifecycle.ts';
import { dataAnswer, JSON_TYPE, TEXT_TYPE, type DataAnswer } from './resource-data.ts';
import { ContentLengthError, declaredLength, holdToLength } from './resource-length.ts';
import { runLoad, type LoadSettings } from './run-loads.ts';
import { normalizeParams } from './route-params.ts';
import { startRouteRun, type RouteHandler, type RouteRun, type RouteRunSettings } from './route-run.ts';

export interface ResourceHandlerOptions {
  /** The request's run: `load` and the delivery of its body bound by the render timeout, as a page's (docs/rendering.md#render-timeout). */
  readonly run: RouteRunSettings;
  /** What `load` gets beyond the request, as a page's. */
  readonly data: LoadSettings;
}

/** The `Cache-Control` of a resource answer that sets none: a page's, so nothing of one visitor's is ever kept by accident. */
// Stryker disable next-line StringLiteral: equivalent; HTML_HEADERS always names a Cache-Control, so the fallback is never read
const NOT_KEPT = HTML_HEADERS.find(([name]) => name === 'Cache-Control')?.[1] ?? 'no-store';

/** A resource route's `load` (or `action`) gave neither a `Response` to send nor data to send as JSON: a fault of the route, the 500 page. */
export class NotAResponseError extends Error {
  override readonly name = 'NotAResponseError';

  constructor(route: string, by: 'load' | 'action', value: unknown) {
    super(
      `Route ${route} has no component, so its ${by} must return a Response, a string, or data JSON can write (null, a number, a boolean, an array, an object of no class, or data() of one), or call redirect() or a status helper; it returned ${describe(value)}`,
    );
  }
}

function describe(value: unknown): string {
  if (value instanceof globalThis.Response) return 'a Response that cannot be sent (Response.error(), or a body already read)';
  if (isDataWithResponseInit(value)) return `data() of ${describe(value.data)}`;
  if (value === null) return 'null';
  if (typeof value === 'object' && 'toJSON' in value) return 'an object whose toJSON() gives nothing JSON can write';
  return typeof value === 'object' ? `an instance of ${value.constructor?.name ?? 'Object'}` : typeof value;
}

/** What of a `Response` the answer is made of. */
interface Sendable {
  readonly status: number;
  readonly headers: Headers;
  readonly body: NodeReadableStream<Uint8Array> | null;
}

function sendable(value: unknown): Sendable | undefined {
  // Response.error() is a network error, with status 0: nothing an HTTP answer can say.
  if (!(value instanceof globalThis.Response) || value.type === 'error' || value.bodyUsed) return undefined;
  const { status, headers, body } = value;
  if (body !== null && !isNodeStream(body)) return undefined;
  return { status, headers, body };
}

/**
 * Node's global `ReadableStream` is node:stream/web's, which TypeScript's DOM types do not say.
 * It is read from the global when a resource route answers, not imported: an import of
 * node:stream/web loads every kind of web stream Node has as the server starts (5 ms of a cold start).
 */
function isNodeStream(body: unknown): body is NodeReadableStream<Uint8Array> {
  return body instanceof globalThis.ReadableStream;
}

/** Nothing more is read from a body: it may free what it holds. Its own failure is no answer's. */
function letGo(body: { cancel(): Promise<void> } | null | undefined): void {
  body?.cancel().catch(() => undefined);
}

/**
 * A resource route (docs/responses.md): `load` (or, for a POST, the action, in the run it
 * answers after: route-run.ts) returns a Fetch `Response`, sent as it is: its status, its headers
 * but those the framework keeps (security headers, framing), its body streamed with
 * backpressure. The same request context, completion line, status pages, digests and render
 * timeout as a page: the timeout bounds `load` and then the body's delivery; a body still
 * streaming then, or an error in it, cuts the connection (its headers are gone).
 */
export function createResourceHandler(route: ResourceRouteDefinition, { run: runSettings, data }: ResourceHandlerOptions): RouteHandler {
  if (typeof route.load !== 'function' && typeof route.action !== 'function') {
    throw new Error(`Route ${route.path} has neither a component, a load nor an action: a resource route answers with what its load or action returns`);
  }

  async function answerResource(req: Request, res: Response, run: RouteRun): Promise<void> {
    const { lifecycle, action } = run;
    let answer: unknown;
    try {
      answer = action === undefined ? await runLoad(route.load, route.layouts ?? [], req, normalizeParams(req.params), run, data) : action.data;
    } catch (error) {
      // A status helper, redirect(), a throw or the timeout: Express answers, unless the client has gone.
      if (lifecycle.enter('done')) throw error;
      return;
    }
    const sent = sendable(answer);
    if (sent === undefined) {
      // The action's data() was unwrapped as a page's is (action-handler.ts); load's is here.
      const given: Unwrapped = action === undefined ? unwrapData(answer) : { value: action.data, status: action.status, headers: action.headers };
      let made: DataAnswer | undefined;
      try {
        made = dataAnswer(given);
      } catch (error) {
        if (lifecycle.enter('done')) throw error;
        return;
      }
      if (made !== undefined) {
        sendData(req, res, route.path, made, lifecycle);
        return;
      }
      if (answer instanceof globalThis.Response && !answer.bodyUsed) letGo(answer.body);
      if (lifecycle.enter('done')) throw new NotAResponseError(route.path, action === undefined ? 'load' : 'action', answer);
      return;
    }
    const { body } = sent;
    if (!lifecycle.enter('rendering')) {
      letGo(body);
      return;
    }
    let length: number | undefined;
    try {
      length = writeHead(req, res, route.path, sent);
    } catch (error) {
      letGo(body);
      lifecycle.enter('done');
      throw error;
    }
    lifecycle.enter('streaming');
    if (body === null || req.method === 'HEAD') {
      res.end();
      lifecycle.enter('delivering');
      letGo(body);
      return;
    }
    streamBody(req, res, body, length, lifecycle);
  }

  return {
    get: function getResource(req: Request, res: Response) {
      res.locals.routePattern = route.path;
      return answerResource(req, res, startRouteRun(req, res, route.path, runSettings));
    },
    afterAction: (req, res, _next, run) => answerResource(req, res, run),
  };
}

/**
 * The answer's status and headers, on the response; throws for a cookie on an answer a shared
 * cache may keep, and for a Content-Length that is no length or one the answer cannot meet.
 */
function writeHead(req: Request, res: Response, route: string, answer: Sendable): number | undefined {
  const given = appHeaders(req, route, answer.headers, 'resource');
  const length = declaredLength(route, answer.headers, answer.body !== null, req.method === 'HEAD' || answer.status === 304);
  writeOwnHead(req, res, route, answer.status, given);
  return length;
}

/** A resource answer's status and its own headers, on the response; throws for a cookie on an answer a shared cache may keep. */
function writeOwnHead(req: Request, res: Response, route: string, status: number, given: AppHeaders): void {
  // A request carrying a session gets a private answer whatever the route asked (page-answer.ts).
  const own = forVisitor(req, given);
  assertNoSharedCookie(route, own, res.hasHeader('Set-Cookie'));
  res.status(status);
  // Most answers: nothing set on the response before (no cookie, no header of getLoadContext's), the
  // head as one list, in the order the headers would have been set in.
  if (setAnswerHead(res, headList(own))) return;
  setRouteHeaders(res, own.headers);
  for (const cookie of own.cookies) res.append('Set-Cookie', cookie);
  res.setHeader('Cache-Control', own.cacheControl ?? NOT_KEPT);
}

/** The own headers of data sent with no `data()` headers: only its `Content-Type`, made once. */
const JSON_TYPE_ONLY: AppHeaders = { headers: [['content-type', JSON_TYPE]], cookies: [], cacheControl: undefined };
const TEXT_TYPE_ONLY: AppHeaders = { headers: [['content-type', TEXT_TYPE]], cookies: [], cacheControl: undefined };

/**
 * The own headers of data sent with `data()`'s: its type unless they name one, and a
 * Content-Length of their own only when it is the body's (Node counts it otherwise); a wrong
 * one is the 500 page, before anything is sent.
 */
function dataHeaders(req: Request, route: string, { headers, type, body }: DataAnswer): AppHeaders {
  if (headers === undefined) return type === JSON_TYPE ? JSON_TYPE_ONLY : TEXT_TYPE_ONLY;
  const given = new Headers(headers);
  if (!given.has('content-type')) given.set('content-type', type);
  const length = declaredLength(route, given, true, false);
  const bytes = length === undefined ? length : Buffer.byteLength(body);
  if (length !== bytes) throw new ContentLengthError(route, `has Content-Length ${length} where its data is ${bytes} bytes`);
  return appHeaders(req, route, given, 'resource');
}

/** HEAD's headers: a GET's, and the length its body would have, which Node counts only for a body it sends. */
function withLength(own: AppHeaders, body: string): AppHeaders {
  if (own.headers.some(([name]) => name === 'content-length')) return own;
  return { ...own, headers: [...own.headers, ['content-length', String(Buffer.byteLength(body))]] };
}

/**
 * Data a route returned: its head and its text in one `res.end()`, as Node sends a string,
 * with its length counted; HEAD gets the same head, the length a GET would have, and no body.
 */
function sendData(req: Request, res: Response, route: string, answer: DataAnswer, lifecycle: PageLifecycle): void {
  if (!lifecycle.enter('rendering')) return;
  const bodiless = req.method === 'HEAD';
  try {
    const own = dataHeaders(req, route, answer);
    writeOwnHead(req, res, route, answer.status, bodiless ? withLength(own, answer.body) : own);
  } catch (error) {
    lifecycle.enter('done');
    throw error;
  }
  lifecycle.enter('streaming');
  if (!lifecycle.enter('delivering')) return;
  if (bodiless) res.end();
  else res.end(answer.body);
}

/** The answer's headers as setRouteHeaders, its cookies and its Cache-Control would set them on a response with none yet. */
function headList(own: AppHeaders): string[] {
  const list: string[] = [];
  for (const [name, value] of own.headers) list.push(name, value);
  for (const cookie of own.cookies) list.push('Set-Cookie', cookie);
  list.push('Cache-Control', own.cacheControl ?? NOT_KEPT);
  return list;
}

/** What `Promise.race` gives when a body has nothing more by the next turn of the event loop. */
const LATER = Symbol('later');
const nextTurn = () => new Promise<typeof LATER>((resolve) => setImmediate(resolve, LATER));

/**
 * Sends the body, held to the Content-Length its head declares (writeHead checked it). A body
 * that is whole by the next turn of the event loop (`Response.json()`, a string, bytes: most
 * are) goes in one write with its head, its length counted, as Node sends `res.end(body)`; any
 * other is piped as it comes. The client leaving, or the render timeout (the lifecycle stops the
 * "render", here the body), cancels the source; an error of the source, or a body that does not
 * meet its length, is logged once with a digest and cuts the connection, so a truncated body
 * never passes for a whole one, and no byte past the length is ever written.
 */
function streamBody(req: Request, res: Response, body: NodeReadableStream<Uint8Array>, length: number | undefined, lifecycle: PageLifecycle): void {
  // Stryker disable next-line StringLiteral: equivalent; the handler set the route's pattern before its load ran
  const route = res.locals.routePattern ?? '(none)';
  const reader = body.getReader();
  let source: Readable | undefined;
  const cancel = () => void reader.cancel().catch(() => undefined);
  lifecycle.stopsRender(function stopBody() {
    lifecycle.enter('abandoned');
    cancel();
    source?.destroy();
    res.destroy();
  });
  function failed(error: unknown): void {
    // Before the response sees it: the lifecycle must not take the cut for a client that left.
    if (!lifecycle.enter('abandoned')) return;
    logServerError(req, error);
    cancel();
    source?.destroy();
    res.destroy();
  }
  async function send(): Promise<void> {
    const first = await reader.read();
    const pending = first.done ? Promise.resolve(first) : reader.read();
    const settled = await Promise.race([pending, nextTurn()]);
    const whole = settled !== LATER && settled.done ? (first.value ?? new Uint8Array(0)) : undefined;
    // One write, Node counting its length; a body that misses the length it declared goes as any other, and is cut.
    if (whole !== undefined && (length === undefined || whole.byteLength === length)) {
      // A client that left meanwhile has had the response destroyed (stopBody).
      if (lifecycle.enter('delivering')) res.end(whole);
      return;
    }
    source = Readable.from(chunks(first.value, pending, reader));
    const sent = length === undefined ? source : source.pipe(holdToLength(route, length));
    source.once('error', failed);
    // Stryker disable next-line ConditionalExpression: equivalent; a second listener on the same stream finds the lifecycle abandoned and does nothing
    if (sent !== source) sent.once('error', failed);
    sent.once('end', () => lifecycle.enter('delivering'));
    sent.pipe(res);
  }
  send().catch(failed);
}

/** The body's chunks: the first, the one already asked for, then the rest as they come. */
async function* chunks(
  first: Uint8Array | undefined,
  pending: Promise<ReadableStreamReadResult<Uint8Array>>,
  reader: ReadableStreamDefaultReader<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  if (first !== undefined) yield first;
  for (let read = await pending; !read.done; read = await reader.read()) yield read.value;
}
