import { useFetcher } from '../../shared/fetcher.tsx';
import type { action } from '../pages/entry.tsx';

/**
 * Likes an entry without leaving the page: a fetcher posts to the entry's action, and the page
 * on screen loads again, so the count shown is the store's. Until it has, the like is counted
 * already (the fetcher's `formData`: optimistic UI). Without JavaScript it is a plain form that
 * posts and shows the entry's page.
 */
export function LikeButton({ id, name, likes }: { readonly id: string; readonly name: string; readonly likes: number }) {
  const fetcher = useFetcher<typeof action>();
  const count = fetcher.formData === undefined ? likes : likes + 1;
  return (
    <fetcher.Form action={`/guestbook/${id}`} className="like">
      <input type="hidden" name="intent" value="like" />
      <button type="submit" aria-label={`Like ${name}'s entry (${count} so far)`} aria-busy={fetcher.state !== 'idle'} disabled={fetcher.state === 'submitting'}>
        ♥ {count}
      </button>
      {fetcher.error === undefined ? null : <span className="field-error">Not saved, try again.</span>}
    </fetcher.Form>
  );
}
