import type { PageHead } from '../../../shared/api/head.ts';
import { Link } from '../../../shared/api/link.tsx';
import { useNavigationState } from '../../../shared/api/navigation.ts';

export const head: PageHead = { title: 'Page A', description: 'The first page of the navigation tests.' };

/** Enough text to scroll: back must bring the reader to where they were. */
export function Filler({ from }: { readonly from: string }) {
  return (
    <>
      {Array.from({ length: 60 }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of filler, never reordered
        <p key={index}>
          {from} filler paragraph {index + 1}, so that the page is taller than the window.
        </p>
      ))}
    </>
  );
}

/** Links to every kind of target an in-place navigation must tell apart. */
export default function NavA() {
  // What a pending indicator would read: the tests watch it, the reader never sees it.
  const { state } = useNavigationState();
  return (
    <main>
      <h1>Page A</h1>
      <output id="nav-state" data-state={state} hidden />
      <ul>
        <li>
          <Link id="to-b" href="/nav/b">
            To page B
          </Link>
        </li>
        <li>
          <Link id="to-b-slow" href="/nav/b?delay=700">
            To page B, slowly
          </Link>
        </li>
        <li>
          <Link id="to-b-section" href="/nav/b#section">
            To the section of page B
          </Link>
        </li>
        <li>
          <Link id="to-missing" href="/nav/missing">
            To a page that does not exist
          </Link>
        </li>
        <li>
          <Link id="to-broken" href="/nav/broken">
            To a page whose load fails
          </Link>
        </li>
        <li>
          <Link id="to-server-only" href="/fixtures/slow?ms=10">
            To a page without JavaScript
          </Link>
        </li>
        <li>
          <Link id="to-b-new-tab" href="/nav/b" target="_blank">
            To page B in a new tab
          </Link>
        </li>
      </ul>
      <Filler from="A" />
      <Link id="to-b-bottom" href="/nav/b">
        To page B, from the bottom
      </Link>
    </main>
  );
}
