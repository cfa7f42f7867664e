import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Runs a function in the async context this module was loaded in: the process's own, with no
 * store set.
 *
 * React renders inside `AsyncLocalStorage.run(request, …)`, and calls the page handler back
 * (shell ready, all ready, shell error, and the destination's `end`) from inside it. Since
 * Node 24 every timer, tick and native handle made under a context keeps that context, and so
 * React's request and all it reaches: the page handler's closures, the response, the page's
 * data. Ending the response there is what leaked: Node arms a keep-alive connection's idle
 * timer as the answer finishes, and that timer then held the finished render until the
 * connection's next request, or for the whole keep-alive timeout if none came. Under load the
 * wait outlived young-generation collections, so each page was copied, promoted and swept
 * again from the old generation. Whatever ends an answer, or makes a
 * compressor for it, runs through this function.
 */
export const outsideRenderContext: <R>(fn: () => R) => R = AsyncLocalStorage.snapshot();
