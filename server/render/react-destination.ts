import { Writable } from 'node:stream';
import { outsideRenderContext } from './outside-render-context.ts';

/** Where a page's bytes go: the response, or a compressor piped into it. */
export interface PageTarget extends NodeJS.WritableStream {
  flush?: (() => void) | undefined;
}

/** What React's `pipe()` writes into: a Writable, and the `flush()` React calls after each batch it writes. */
export type ReactDestination = Writable & { flush(): void };

/** Slices as one chunk: a single slice as it is, several copied once. */
function joined(chunks: readonly Buffer[]): Buffer {
  // Stryker disable next-line ConditionalExpression: equivalent, a copy of the one slice has the same bytes; this only skips the copy
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}

/**
 * A plain Writable between React and the response.
 * - What React writes in one go (the shell, a boundary: many small slices) leaves as one write,
 *   so the shell is never cut around a `drain` and the socket takes one write per batch: the
 *   slices are held until React flushes, or until the end of its synchronous batch (a
 *   microtask) at the latest, so nothing depends on how React slices or flushes its output.
 *   Not a turn of the event loop: an Immediate made inside React's async context keeps the
 *   whole render, finished or not, and its response alive until the loop's check phase. Under
 *   load that is a turn in which hundreds of pages finish: a heap snapshot at 1,000
 *   connections held 488 finished responses that way, which young collections then copied and
 *   promoted.
 * - Nothing waits here: a client that stops reading is the page lifecycle's to cut off.
 * - React's `flush()` reaches a compressor, so the shell and each boundary leave at once.
 * - The response is ended outside React's async context: React ends its destination from
 *   inside it, and what the response arms as it finishes (a keep-alive connection's idle
 *   timer) would keep the whole render alive (outside-render-context.ts).
 * - When the response closes early, this closes too, and React, which listens, stops.
 */
export function createReactDestination(target: PageTarget): ReactDestination {
  const held: Buffer[] = [];
  let scheduled = false;
  function release(): void {
    scheduled = false;
    if (held.length === 0) return;
    const bytes = joined(held);
    held.length = 0;
    target.write(bytes);
  }
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      held.push(chunk);
      // Stryker disable next-line ConditionalExpression,BooleanLiteral: equivalent, a release per slice sends the batch with the first and finds nothing after; this only saves the microtasks
      if (!scheduled) {
        // Stryker disable next-line BooleanLiteral: equivalent, as above
        scheduled = true;
        queueMicrotask(release);
      }
      callback();
    },
    final(callback) {
      release();
      outsideRenderContext(() => target.end());
      callback();
    },
  });
  target.once('close', () => {
    held.length = 0;
    destination.destroy();
  });
  return Object.assign(destination, {
    flush() {
      release();
      target.flush?.();
    },
  });
}
