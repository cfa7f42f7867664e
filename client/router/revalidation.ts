import type { Submission } from '../../shared/api/navigation.ts';
import type { Go } from './go-options.ts';

/**
 * Revalidation (React Router's): loading the page on the screen again after a fetcher's post or
 * by hand (`useRevalidator()`), a GET of the address's data keeping only the layouts whose
 * `shouldRevalidate` says so, shown in place: the router's `go`, passed in as it is. `busy` says
 * a navigation is under way, which brings a page loaded afresh anyway and is left alone.
 * Returns Navigator.revalidate, and what the view shown next runs inside its update: the
 * waiting fetchers' `onShow`, so theirs renders with it.
 */
export function createRevalidation(
  go: (url: URL, options: Go) => Promise<void>,
  busy: () => boolean,
): [revalidate: (onShow: () => void, after?: Submission) => Promise<void>, tellRevalidated: () => void] {
  /** The latest revalidation, which those it replaced wait for. */
  let latest: Promise<void> = Promise.resolve();
  /** What the fetchers whose posts are being revalidated run when the page shows again. */
  let waiting: Array<() => void> = [];

  function tellRevalidated(): void {
    const told = waiting;
    waiting = [];
    for (const onShow of told) onShow();
  }

  /** Settles once the page shows the latest revalidation: one a newer one replaced waits for that one. */
  function settled(run: Promise<void>): Promise<void> {
    return run.then(() => (run === latest ? undefined : settled(latest)));
  }

  function revalidate(onShow: () => void, after?: Submission): Promise<void> {
    waiting.push(onShow);
    if (busy()) {
      tellRevalidated();
      return Promise.resolve();
    }
    const run: Promise<void> = new Promise<void>((shown) => {
      void go(new URL(location.href), { revalidate: true, refresh: shown, after }).finally(() => {
        // Ended without showing (failed, or replaced by a navigation): the fetchers wait no more. One
        // replaced by a newer revalidation leaves them to that one.
        if (run === latest) tellRevalidated();
        shown();
      });
    });
    latest = run;
    return settled(run);
  }

  return [revalidate, tellRevalidated];
}
