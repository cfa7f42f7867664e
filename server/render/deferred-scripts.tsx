import { Suspense, use } from 'react';

/**
 * The scripts of the deferred values that settled since React last read the chain, and the
 * promise of the next such batch (`null`: no script follows).
 */
interface Link {
  readonly scripts: string[];
  /** React has rendered this batch: a later script goes into the next. */
  read: boolean;
  readonly next: Promise<Link | null>;
}

/** React's protocol for a thenable whose value is known: `use()` reads it without suspending. */
type Tracked<T> = Promise<T> & { status?: 'fulfilled'; value?: T };

function deferredPromise<T>(): { readonly promise: Tracked<T>; readonly resolve: (value: T) => void } {
  let settle: ((value: T) => void) | undefined;
  const promise: Tracked<T> = new Promise<T>((resolve) => {
    settle = resolve;
  });
  return {
    promise,
    resolve(value) {
      promise.status = 'fulfilled';
      promise.value = value;
      settle?.(value);
    },
  };
}

export interface ScriptChain {
  /** A settled value's script (already safe inside `<script>`, data-stream.ts). */
  push(script: string): void;
  /** No script follows. */
  end(): void;
  /** What the document renders after `#root` to carry the scripts. */
  readonly element: React.ReactElement;
}

/**
 * The deferred values' scripts as part of the document React streams, not bytes spliced into
 * its output: each batch is a Suspense boundary after `#root` that completes when the batch is
 * there. React writes it like any boundary (the scripts under the page's nonce, in a hidden
 * segment the parser runs as it reads it), so where the scripts go never depends on how React
 * slices or flushes its output, and the document ends only once the last value is written,
 * whether a component reads it or not. The client hydrates `#root` only: nothing here can
 * mismatch. Values that settle while React is busy ride in one batch.
 */
export function createScriptChain(nonce: string): ScriptChain {
  let slot = deferredPromise<Link | null>();
  let open: Link | undefined;
  let ended = false;
  const first = slot.promise;

  // biome-ignore lint/correctness/noComponentHookFactories: one chain per document, made before React renders it; its batches share the chain's state and nonce
  function ScriptBatch({ link }: { readonly link: Promise<Link | null> }) {
    const batch = use(link);
    if (batch === null) return null;
    batch.read = true;
    if (open === batch) open = undefined;
    return (
      <>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: scripts seroval wrote to run here, under the page's nonce */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: batch.scripts.join(';') }} />
        <Suspense fallback={null}>
          <ScriptBatch link={batch.next} />
        </Suspense>
      </>
    );
  }

  return {
    push(script) {
      if (ended) return;
      if (open !== undefined && !open.read) {
        open.scripts.push(script);
        return;
      }
      const next = deferredPromise<Link | null>();
      open = { scripts: [script], read: false, next: next.promise };
      slot.resolve(open);
      slot = next;
    },
    end() {
      if (ended) return;
      ended = true;
      slot.resolve(null);
    },
    element: (
      <Suspense fallback={null}>
        <ScriptBatch link={first} />
      </Suspense>
    ),
  };
}
