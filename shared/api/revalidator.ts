import { useMemo, useState } from 'react';
import { installedNavigator } from './navigation.ts';

/** What `useRevalidator()` gives: whether the revalidation it started is under way, and a way to start one. */
export interface Revalidator {
  readonly state: 'idle' | 'loading';
  /** Loads the page on the screen again, every level its layouts let (`shouldRevalidate`), in place; settles once it shows. */
  revalidate(): Promise<void>;
}

/**
 * React Router's `useRevalidator()`: loads the page's data again without a navigation, for data
 * that changes without the visitor doing anything (a list others add to, polled; a dashboard
 * when the window regains focus). The history entry, scroll, focus and what was typed stay, as
 * after a fetcher's post (docs/building-an-app.md#revalidating-by-hand). `state` goes back to
 * `idle` in the same update that shows the new data.
 */
export function useRevalidator(): Revalidator {
  const [state, setState] = useState<Revalidator['state']>('idle');
  // One function for the component's life: an effect that polls with it does not start again.
  const [revalidate] = useState(() => async () => {
    setState('loading');
    const navigator = await installedNavigator();
    await navigator.revalidate(() => setState('idle'));
  });
  return useMemo(() => ({ state, revalidate }), [state, revalidate]);
}
