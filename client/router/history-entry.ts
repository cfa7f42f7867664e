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

/**
 * Makes the current entry the document's view `key`, marked with `doc`, the document's mark, and
 * starts keeping its scroll. The browser's own restoration would fight the runtime's; so the
 * runtime restores a reload's, and a return from another document's, from the scroll kept in
 * the entry.
 */
export function claimHistory(history: History, key: number, doc: number): void {
  history.scrollRestoration = 'manual';
  const scroll = keptScroll(Object(history.state));
  if (scroll !== undefined) scrollTo(...scroll);
  history.replaceState({ ...history.state, key, doc }, '');
  // Kept as each scroll ends, not as the page goes: Chrome keeps no history change made while a
  // reload or another document unloads this one.
  addEventListener('scrollend', () => saveScroll(history));
}

/**
 * A new history entry for view `key` that `landed` there, or the current one replaced: back or
 * forward (`pop`), a `replace`, or the same address again. Back or forward to a view loaded
 * again gives the entry the new view's key, its scroll kept: the next move there finds this
 * view, and where it was left.
 */
export function recordEntry(history: History, doc: number, key: number, landed: URL, pop: boolean, replace: boolean): void {
  const replacing = pop || replace || landed.href === location.href;
  if (!replacing) saveScroll(history);
  history[replacing ? 'replaceState' : 'pushState']({ ...(pop && history.state), key, doc }, '', landed.href);
}
