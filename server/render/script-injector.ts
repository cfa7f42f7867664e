import { EventEmitter } from 'node:events';
import { outsideRenderContext } from './outside-render-context.ts';

/** The bytes React ends every document with (`</body>` and `</html>`, in its last batch). */
const DOCUMENT_END = Buffer.from('</body></html>');
const NO_SCRIPTS = Buffer.alloc(0);

/** Where React's output goes: the response, or a compressor piped into it. */
export interface PageDestination extends NodeJS.WritableStream {
  flush?: (() => void) | undefined;
}

/**
 * What React's `pipe()` needs of a destination: `write`, `end`, the `flush` it calls after each
 * batch, `destroy` after a fatal error, and the events it listens to (`close` is the one this
 * sends). Not a stream.Writable: with one per response, a third of what a page allocated
 * survived each young-generation collection under load, and collecting took a sixth of the
 * page's CPU (docs/benchmark.md; why the Writable kept so much alive was not found).
 */
export interface ReactDestination extends EventEmitter {
  write(chunk: Uint8Array | string): boolean;
  end(): void;
  flush(): void;
  destroy(): void;
}

export interface ScriptInjector {
  /** Adds an inline script (already safe inside `<script>`) under the request's nonce. */
  inject(script: string): void;
  /** No script will follow: the document may end once React has finished too. */
  complete(): void;
  /** What React pipes into once the response starts; scripts injected so far follow the shell. */
  connect(destination: PageDestination): ReactDestination;
}

/**
 * React's slices of one batch as one Buffer. A batch of one slice is that slice, not a copy:
 * React never writes into a slice again once it has handed it over (it starts a new one), so
 * holding it until the flush is safe, as holding several is.
 */
function joined(chunks: readonly Uint8Array[]): Buffer {
  if (chunks.length !== 1) return Buffer.concat(chunks);
  const only = chunks[0] as Uint8Array;
  return Buffer.isBuffer(only) ? only : Buffer.from(only.buffer, only.byteOffset, only.byteLength);
}

/**
 * What React writes into. React writes in 4 KiB slices that may cut a tag in two and calls
 * `flush()` at the end of each batch: only there is the document between elements. So its
 * bytes are held until its flush and leave as one write (one chunk, not one per slice), and
 * our inline scripts go between batches; a script that comes while React is idle goes out at
 * shortly. Scripts always go before `</body></html>`, and the document ends only when both React
 * and the scripts are done: a deferred value no component read still reaches the browser.
 */
export function createScriptInjector(nonce: string): ScriptInjector {
  const held: Uint8Array[] = [];
  let waiting: string[] = [];
  let destination: PageDestination | undefined;
  let between = false;
  let tail: Buffer | undefined;
  let reactDone = false;
  let scriptsDone = false;
  let closed = false;

  let shellSent = false;
  let soon = false;

  function takeWaiting(): Buffer {
    if (waiting.length === 0) return NO_SCRIPTS;
    const tags = waiting.map((script) => `<script nonce="${nonce}">${script}</script>`).join('');
    waiting = [];
    return Buffer.from(tags);
  }

  function writeWaiting(target: PageDestination): void {
    if (waiting.length > 0) target.write(takeWaiting());
  }

  /**
   * React's batch, with the scripts waiting in the same write: after the shell (they belong in
   * the body), before any later batch (the values before the boundaries that use them). The
   * document's end is kept back.
   */
  function release(target: PageDestination): void {
    const bytes = joined(held);
    held.length = 0;
    const ends = bytes.length >= DOCUMENT_END.length && bytes.subarray(bytes.length - DOCUMENT_END.length).equals(DOCUMENT_END);
    const body = ends ? bytes.subarray(0, bytes.length - DOCUMENT_END.length) : bytes;
    if (ends) tail = DOCUMENT_END;
    const scripts = takeWaiting();
    // Copied again only when there are scripts to put beside React's bytes.
    const out = scripts.length === 0 ? body : shellSent ? Buffer.concat([scripts, body]) : Buffer.concat([body, scripts]);
    shellSent = true;
    if (out.length > 0) target.write(out);
  }

  /**
   * A value that settles while React is idle: React usually follows within a turn with the
   * boundary that reads it, and the script rides in that batch's write. If nothing comes, it
   * goes out alone two turns later.
   */
  function releaseSoon(target: PageDestination): void {
    if (soon) return;
    soon = true;
    setImmediate(() =>
      setImmediate(() => {
        soon = false;
        if (closed || !between || waiting.length === 0) return;
        writeWaiting(target);
        target.flush?.();
      }),
    );
  }

  function endWhenDone(): void {
    if (closed || !reactDone || !scriptsDone || destination === undefined) return;
    closed = true;
    writeWaiting(destination);
    if (tail !== undefined) destination.write(tail);
    // Not in React's async context: what finishing arms would keep the render alive.
    const target = destination;
    outsideRenderContext(() => target.end());
  }

  return {
    inject(script) {
      if (closed) return;
      waiting.push(script);
      if (destination !== undefined && between) releaseSoon(destination);
    },
    complete() {
      scriptsDone = true;
      endWhenDone();
    },
    connect(target) {
      destination = target;
      const sink = Object.assign(new EventEmitter(), {
        write(chunk: Uint8Array | string): boolean {
          between = false;
          // React writes a long string (its stylesheet text, say) as it is, the rest as bytes.
          held.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
          // Held until React's flush: nothing to wait for.
          return true;
        },
        end(): void {
          release(target);
          between = true;
          reactDone = true;
          endWhenDone();
          target.flush?.();
        },
        flush(): void {
          release(target);
          between = true;
          target.flush?.();
        },
        /** React's end after a fatal error: what it wrote is dropped; the response is the page handler's to end. */
        destroy(): void {
          closed = true;
          held.length = 0;
          sink.emit('close');
        },
      });
      // A client that goes away closes the destination; React hears it from what it writes to.
      target.once('close', function destinationClosed() {
        closed = true;
        sink.emit('close');
      });
      return sink;
    },
  };
}
