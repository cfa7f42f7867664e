import { Writable } from 'node:stream';

/** The bytes React ends every document with (`</body>` and `</html>`, in its last batch). */
const DOCUMENT_END = Buffer.from('</body></html>');

/** Where React's output goes: the response, or a compressor piped into it. */
export interface PageDestination extends NodeJS.WritableStream {
  flush?: (() => void) | undefined;
}

export interface ScriptInjector {
  /** Adds an inline script (already safe inside `<script>`) under the request's nonce. */
  inject(script: string): void;
  /** No script will follow: the document may end once React has finished too. */
  complete(): void;
  /** What React pipes into once the response starts; scripts injected so far follow the shell. */
  connect(destination: PageDestination): Writable & { flush(): void };
}

/**
 * Puts our inline scripts into React's HTML stream where HTML allows them. React writes in
 * 4 KiB slices that may cut a tag in two and calls `flush()` at the end of each batch: only
 * there is the document between elements. So React's bytes are held until its flush, and a
 * script waits for the next batch boundary; one that comes while React is idle goes out at
 * once. Scripts always go before `</body></html>`, and the document ends only when both React
 * and the scripts are done: a deferred value no component read still reaches the browser.
 */
export function createScriptInjector(nonce: string): ScriptInjector {
  const held: Buffer[] = [];
  let waiting: string[] = [];
  let destination: PageDestination | undefined;
  let between = false;
  let tail: Buffer | undefined;
  let reactDone = false;
  let scriptsDone = false;
  let closed = false;

  function writeWaiting(target: PageDestination): void {
    if (waiting.length === 0) return;
    target.write(waiting.map((script) => `<script nonce="${nonce}">${script}</script>`).join(''));
    waiting = [];
  }

  /** React's batch so far, then the scripts waiting; the document's end is kept back. */
  function release(target: PageDestination): void {
    const bytes = Buffer.concat(held);
    held.length = 0;
    const ends = bytes.length >= DOCUMENT_END.length && bytes.subarray(bytes.length - DOCUMENT_END.length).equals(DOCUMENT_END);
    const body = ends ? bytes.subarray(0, bytes.length - DOCUMENT_END.length) : bytes;
    if (ends) tail = DOCUMENT_END;
    if (body.length > 0) target.write(body);
    writeWaiting(target);
  }

  function endWhenDone(): void {
    if (closed || !reactDone || !scriptsDone || destination === undefined) return;
    closed = true;
    writeWaiting(destination);
    if (tail !== undefined) destination.write(tail);
    destination.end();
  }

  return {
    inject(script) {
      if (closed) return;
      waiting.push(script);
      if (destination !== undefined && between) {
        // Between React's batches: out now, so the value can arrive before the boundary using it.
        writeWaiting(destination);
        destination.flush?.();
      }
    },
    complete() {
      scriptsDone = true;
      endWhenDone();
    },
    connect(target) {
      destination = target;
      const stream = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          between = false;
          held.push(chunk);
          callback();
        },
        final(callback) {
          release(target);
          between = true;
          reactDone = true;
          endWhenDone();
          target.flush?.();
          callback();
        },
      });
      // A client that goes away closes the destination; React hears it from what it writes to.
      target.once('close', function destinationClosed() {
        closed = true;
        stream.destroy();
      });
      return Object.assign(stream, {
        flush() {
          release(target);
          between = true;
          target.flush?.();
        },
      });
    },
  };
}
