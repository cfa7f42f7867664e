import type { View } from '../view.ts';
import type { Head } from './document-head.ts';

/** Views kept for back and forward, newest last. */
const MAX_KEPT = 20;

/** A view back and forward may show again without asking the server, with its head and stylesheets. */
export interface KeptView {
  readonly view: View;
  readonly title: string;
  readonly head: Head;
  readonly styles?: readonly string[] | undefined;
}

/**
 * What back and forward may show again, by history key: only views any visitor may be shown
 * (the data's `keep`, docs/navigation.md), the last MAX_KEPT; any other is loaded again. `entry`
 * keeps the view of `key`, `undefined` forgets it (a view loaded again that may not be kept).
 */
export function keepView(kept: Map<number, KeptView>, key: number, entry: KeptView | undefined): void {
  if (entry === undefined) kept.delete(key);
  else kept.set(key, entry);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value ?? 0);
}
