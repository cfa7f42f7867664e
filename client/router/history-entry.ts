/** What the runtime keeps in a history entry's state, as any other script may have left it. */
export interface EntryState {
  readonly key?: unknown;
  readonly doc?: unknown;
  readonly scroll?: unknown;
}

/** The scroll an entry kept as its page was left (saveScroll). */
export function keptScroll({ scroll }: EntryState): readonly [number, number] | undefined {
  // Whatever it holds, scrollTo takes: what is no number scrolls to the top.
  return Array.isArray(scroll) ? (scroll as [number, number]) : undefined;
}

/** Keeps the scroll in the current entry, for a reload or a return from another document. */
export function saveScroll(history: History): void {
  history.replaceState({ ...history.state, scroll: [scrollX, scrollY] }, '');
}

/** Whether a link goes to another fragment of the page on the screen: the browser scrolls there by itself, and the page stays. */
export function otherFragmentHere(url: URL): boolean {
  return url.hash !== '' && url.pathname + url.search === location.pathname + location.search;
}

/** What claimHistory leaves the navigation runtime: this document's mark on its entries (EntryState's `doc`) and the path and query it was claimed at. */
export interface HistoryClaim {
  readonly doc: number;
  readonly here: string;
}

/**
 * Takes the history over for a document whose links and forms may move in place, as soon as it
 * has hydrated: before the navigation runtime (create-router.ts) is loaded, which waits for a
 * first sign of intent.
 */
export function claimHistory(history: History, key: number): HistoryClaim {
  // This document's mark on the history entries it makes. Keys start again in every document,
  // so an entry another document left (before a reload, or a page loaded in full) holds a key
  // that may name a view of this one: only entries with this mark are looked up.
  const doc = Math.random();
  // The document's own view is not kept: its Cache-Control is the document's, which no script
  // can read, and a page's is no-store unless it says otherwise. Back there loads it again.
  // The browser's own restoration would fight the runtime's; so the runtime restores a reload's,
  // and a return from another document's, from the scroll kept in the entry (saveScroll).
  history.scrollRestoration = 'manual';
  const scroll = keptScroll(Object(history.state));
  if (scroll !== undefined) scrollTo(...scroll);
  history.replaceState({ ...history.state, key, doc }, '');
  // Kept as each scroll ends, not as the page goes: Chrome keeps no history change made while a
  // reload or another document unloads this one.
  addEventListener('scrollend', () => saveScroll(history));
  return { doc, here: location.pathname + location.search };
}
