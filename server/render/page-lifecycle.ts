import type { Request, Response } from 'express';
import type { HttpError } from '../../shared/api/http-error.ts';
import { createDigest } from '../observability/digest.ts';
import { untilStopped } from './abortable.ts';
import { ClientDisconnectedError, RenderTimeoutError } from './render-errors.ts';
import { canEnter, isSettled, type RenderPhase } from './render-phase.ts';

/**
 * One page request from its arrival to its end (docs/rendering.md): where it stands (the phase,
 * render-phase.ts), the one timer that bounds it, what that timer and a departing client stop,
 * and every line logged about the render. The parts that load, render and send a page ask it
 * before they act, so a late callback (React's, the socket's) never answers twice.
 */
export class PageLifecycle {
  readonly #req: Request;
  readonly #res: Response;
  readonly #route: string;
  readonly #timeoutMs: number;
  readonly #timer: NodeJS.Timeout;
  #phase: RenderPhase = 'loading';
  /** What runs while the phase is `loading`: a post's action first, then the loads and the render; named by the timeout and the abort line. */
  #stage: 'action' | 'render' = 'render';
  #load: AbortController | undefined;
  /** Why the loads were stopped (the client went, or the timeout came while they ran); once. */
  #loadsStopped: { readonly reason: unknown } | undefined;
  /** The rejections of the waits `untilStopped` is running. */
  #waits: Set<(reason: unknown) => void> | undefined;
  #abortRender: ((reason: unknown) => void) | undefined;
  #stopDeferred: ((digest: string) => boolean) | undefined;
  #timeoutDigest: string | undefined;
  #status: HttpError | undefined;

  constructor(req: Request, res: Response, route: string, timeoutMs: number) {
    this.#req = req;
    this.#res = res;
    this.#route = route;
    this.#timeoutMs = timeoutMs;
    this.#timer = setTimeout(() => this.#timedOut(), timeoutMs);
    // A response closes once (Node's `_closed` flag), so `on` is enough: `once` would wrap the listener in a closure of its own.
    res.on('close', () => this.#closed());
  }

  /**
   * `load`'s signal: aborted when the client goes, or at the timeout while it runs. Made when a
   * load first reads it: most never do, and a signal is an EventTarget with listeners of its own.
   */
  get loadSignal(): AbortSignal {
    if (this.#load === undefined) {
      this.#load = new AbortController();
      if (this.#loadsStopped !== undefined) this.#load.abort(this.#loadsStopped.reason);
    }
    return this.#load.signal;
  }

  /** Settles with `work`, or rejects with the reason as soon as the loads are stopped (abortable.ts). */
  untilStopped<T>(work: T | Promise<T>): Promise<T> {
    if (this.#loadsStopped !== undefined) return Promise.reject(this.#loadsStopped.reason);
    this.#waits ??= new Set();
    const waits = this.#waits;
    return untilStopped(work, (stop) => {
      waits.add(stop);
      return () => waits.delete(stop);
    });
  }

  /**
   * Runs a post's action (with its context and its layouts' guards): stopped as a load is, by
   * the timeout or a departed client, which are then said to have cut the action. The same
   * timer and signal go on bounding the loads and the answer after it.
   */
  during<T>(stage: 'action', work: () => Promise<T>): Promise<T> {
    this.#stage = stage;
    return this.untilStopped(work()).finally(() => {
      this.#stage = 'render';
    });
  }

  /** Throws why the loads were stopped, if they were: what comes after that starts nothing. */
  throwIfStopped(): void {
    if (this.#loadsStopped !== undefined) throw this.#loadsStopped.reason;
  }

  /** Nothing has been sent: the status line can still change. */
  get nothingSent(): boolean {
    return canEnter(this.#phase, 'streaming');
  }

  /** The shell is out and boundaries may still stream in. */
  get streaming(): boolean {
    return this.#phase === 'streaming';
  }

  /** The digest the render timeout gave what it stopped, if it fired. */
  get timeoutDigest(): string | undefined {
    return this.#timeoutDigest;
  }

  /** The first status helper called before anything was sent: the page ends in its status page. */
  get status(): HttpError | undefined {
    return this.#status;
  }

  /** The only place the phase changes. The timer goes as soon as nothing is left to bound. */
  enter(to: RenderPhase): boolean {
    if (!canEnter(this.#phase, to)) return false;
    this.#phase = to;
    if (isSettled(to)) {
      clearTimeout(this.#timer);
      // No one will receive a value still pending now (the client left, HEAD ended at the head,
      // or Express answers instead): it is stopped, and its rejection is never logged as an
      // error whose digest nobody got.
      this.#stopDeferred?.('');
    }
    return true;
  }

  /**
   * The data is loaded: from now on the timeout rejects the deferred values still pending with
   * its digest. `stop` says whether there was one.
   */
  stopsDeferred(stop: (digest: string) => boolean): void {
    this.#stopDeferred = stop;
    if (isSettled(this.#phase)) stop('');
  }

  /** React has started: from now on the timeout and a departing client stop the render too. */
  stopsRender(abort: (reason: unknown) => void): void {
    this.#abortRender = abort;
  }

  /**
   * A status helper (`notFound()`…) called while rendering or in a deferred value. Before
   * anything is sent the page ends in that status page (true); after the shell, only a warn
   * line says so, and the boundary shows it.
   */
  statusCalled(error: HttpError, where: 'render' | 'deferred value'): boolean {
    if (this.nothingSent) {
      this.#status ??= error;
      return true;
    }
    if (where === 'deferred value' || this.streaming) {
      const message = where === 'render' ? 'status helper called after the shell was sent' : 'status helper called in a deferred value';
      this.#req.log.warn({ route: this.#route, status: error.status }, message);
    }
    return false;
  }

  /** A route's ErrorBoundary shows the status helper's status instead of its status page: the render goes on. */
  statusShownByBoundary(): void {
    this.#status = undefined;
  }

  /**
   * The document's head is about to go out (or its status page). A render the timeout cut short
   * says so now, once what React completed is known to be sent.
   */
  answering(): boolean {
    if (!this.nothingSent) return false;
    if (this.#phase === 'cut-short') this.#logTimedOut(false);
    return true;
  }

  /** Stops `load` and the render for good: the client is gone, or no longer reads. */
  #abandon(reason: ClientDisconnectedError | RenderTimeoutError): boolean {
    if (!this.enter('abandoned')) return false;
    this.#stopLoads(reason);
    this.#abortRender?.(reason);
    return true;
  }

  /** Aborts the loads' signal, if one was made, and rejects what waits on them. */
  #stopLoads(reason: ClientDisconnectedError | RenderTimeoutError): void {
    this.#loadsStopped ??= { reason };
    this.#load?.abort(reason);
    const waits = this.#waits;
    this.#waits = undefined;
    for (const reject of waits ?? []) reject(reason);
  }

  /** What was written is not draining: ended but unflushed, or waiting on 'drain'. */
  #clientStalled(): boolean {
    const res = this.#res;
    return res.writableEnded ? !res.writableFinished : res.writableNeedDrain;
  }

  /**
   * Rejects what is still pending with the timeout's digest, then lets React stop. The
   * rejections settle in microtasks, and React renders their scripts (deferred-scripts.tsx) in
   * the next turn of the event loop; the abort waits one turn more, so it stops only what
   * nothing will settle.
   */
  #stopAtTimeout(timeout: RenderTimeoutError): void {
    const digest = createDigest();
    this.#timeoutDigest = digest;
    this.#stopDeferred?.(digest);
    setImmediate(() => setImmediate(() => this.#abortRender?.(timeout)));
  }

  /** Bounds the whole response: `load`, the render, and the delivery of what it wrote. */
  #timedOut(): void {
    const timeout = new RenderTimeoutError(this.#timeoutMs, this.#stage);
    switch (this.#phase) {
      case 'loading':
        // `load` fails with the timeout and Express answers the 500 page. Its error line,
        // carrying the digest the visitor sees, is this event's only line.
        this.#stopLoads(timeout);
        return;
      case 'rendering':
        // Nothing sent yet: React completes the document with fallbacks for what is pending
        // (logged when it is sent, `answering`), or fails the shell (Express: 500).
        this.enter('cut-short');
        this.#stopAtTimeout(timeout);
        return;
      case 'streaming': {
        // Pending boundaries fall back to client rendering; a client that stopped reading
        // would hold the socket and the buffered page forever.
        const stalled = this.#clientStalled();
        if (!stalled) this.#stopAtTimeout(timeout);
        this.#logTimedOut(stalled);
        if (stalled && this.#abandon(timeout)) this.#res.destroy();
        return;
      }
      case 'delivering':
        if (this.#clientStalled()) {
          this.#req.log.info({ route: this.#route, timeoutMs: this.#timeoutMs }, 'client stopped reading: connection closed');
          if (this.#abandon(timeout)) this.#res.destroy();
          return;
        }
        // React is done, but deferred values no component reads are still on their way.
        this.#timeoutDigest = createDigest();
        if (this.#stopDeferred?.(this.#timeoutDigest)) this.#logTimedOut(false);
        return;
      default:
        // cut-short, done, abandoned: already stopped, or the timer was cleared.
        return;
    }
  }

  #logTimedOut(clientStalled: boolean): void {
    this.#req.log.warn({ route: this.#route, timeoutMs: this.#timeoutMs, clientStalled, digest: this.#timeoutDigest ?? null }, 'render timed out');
  }

  #closed(): void {
    clearTimeout(this.#timer);
    if (this.#res.writableFinished) this.enter('done');
    else if (this.#abandon(new ClientDisconnectedError())) this.#req.log.info({ route: this.#route }, `${this.#stage} aborted: client disconnected`);
  }
}
