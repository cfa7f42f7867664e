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
