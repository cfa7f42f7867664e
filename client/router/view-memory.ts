import type { View } from '../view.ts';
import type { Head } from './document-head.ts';

/**
 * What back and forward may show again, by history key, without asking the server: only views
 * any visitor may be shown (the data's `keep`, docs/navigation.md), the last MAX_KEPT, newest
 * last; any other is loaded again. The router keeps them (commit, create-router.ts).
 */
export const MAX_KEPT = 20;

/** A view back and forward may show again without asking the server, with its head and stylesheets. */
export interface KeptView {
  readonly view: View;
  readonly title: string;
  readonly head: Head;
  readonly styles?: readonly string[] | undefined;
}
