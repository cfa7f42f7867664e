import type { Submission } from '../../shared/api/navigation.ts';

/** What a navigation (the router's `go`) is asked to do, beside its address. */
export interface Go {
  readonly replace?: boolean | undefined;
  /** Back or forward: restore this entry's scroll; the entry is the view's now, no new one. */
  readonly pop?: { readonly scroll?: readonly [number, number] | undefined } | undefined;
  readonly post?: URLSearchParams | undefined;
  /** Redirects followed in place to get here. */
  readonly hops?: number | undefined;
  /** Load every level again, layouts too: the page after a post, or after its redirect. */
  readonly revalidate?: boolean | undefined;
  /** A revalidation of the page on the screen (Navigator.revalidate): shown in place, no pending state; called once it shows. */
  readonly refresh?: (() => void) | undefined;
  /** The post this load follows (a fetcher's, or one whose action redirected here), for the layouts' `shouldRevalidate`. */
  readonly after?: Submission | undefined;
}
