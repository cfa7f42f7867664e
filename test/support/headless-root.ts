import type { ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type RootOptions } from 'react-dom/client';
import { vi } from 'vitest';

/** A mounted tree without a page around it. */
export interface HeadlessRoot {
  /** Renders (or renders again) at once, layout effects included. */
  render(node: ReactNode): void;
  unmount(): void;
}

function ignore(): void {}

/** What createRoot asks of its container before taking it (an element's `nodeType`); the DOM's types want all of an element. */
function readsAsElement(value: { readonly nodeType: number }): value is { readonly nodeType: number } & Element {
  return value.nodeType === 1;
}

/**
 * A React client root in Node, for hooks that only run in a browser (the fetcher's store,
 * shared/api/fetcher.tsx, subscribes in a layout effect, which the server never runs). The project
 * has no DOM library, and needs none here: a tree whose components render nothing (they only
 * read hooks) creates no element, so react-dom's client touches only what stands in below: the
 * container and its document, where it listens for events and looks for the focused element
 * around a commit, and `window` for the current event. The stubs go with `vi.unstubAllGlobals()`.
 */
export function headlessRoot(options?: RootOptions): HeadlessRoot {
  const document = { nodeType: 9, activeElement: null, body: null, addEventListener: ignore, removeEventListener: ignore };
  vi.stubGlobal('window', { document, HTMLIFrameElement: class {} });
  const container = { nodeType: 1, ownerDocument: document, textContent: '', addEventListener: ignore, removeEventListener: ignore };
  if (!readsAsElement(container)) throw new Error('the stand-in container has no element nodeType');
  const root = createRoot(container, options);
  return {
    render(node) {
      flushSync(() => root.render(node));
    },
    unmount() {
      flushSync(() => root.unmount());
    },
  };
}
