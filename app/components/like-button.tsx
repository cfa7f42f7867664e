import { useFetcher } from 'react-stream-shell';
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
  const submitting = fetcher.state === 'submitting';
  // aria-disabled rather than disabled while the like is on its way: a button that becomes
  // disabled loses the focus, and a keyboard visitor would be left on the page's body.
  return (
    <fetcher.Form action={`/guestbook/${id}`} className="like">
      <input type="hidden" name="intent" value="like" />
      <button
        type="submit"
        aria-busy={fetcher.state !== 'idle'}
        aria-disabled={submitting}
        onClick={(event) => {
          if (submitting) event.preventDefault();
        }}
      >
        {/* The name read aloud begins with the count shown (WCAG 2.5.3), then says what the button does. */}
        <span aria-hidden="true">♥</span> {count} <span className="sr-only">{`likes: like ${name}'s entry`}</span>
      </button>
      {fetcher.error === undefined ? null : <span className="field-error">Not saved, try again.</span>}
    </fetcher.Form>
  );
}
