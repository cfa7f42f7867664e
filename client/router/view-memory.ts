import type { View } from '../view.ts';
import type { Head } from './document-head.ts';

/**
 * What back and forward may show again, by history key, without asking the server: only views
 * any visitor may be shown (the data's `keep`, docs/navigation.md), the last MAX_KEPT, newest
 * last; any other is loaded again. The router keeps them (commit, create-router.ts).
 */
export const MAX_KEPT = 20;

/** A view back and forward may show again without asking the server, with its title, head and stylesheets: commit's own arguments, in its order. */
export type KeptView = readonly [view: View, title: string, head: Head, styles: readonly string[] | undefined];
