import { Link } from '../../../shared/api/link.tsx';
import { Filler } from './nav-a.tsx';
import type { Route } from './+types/bad-fragment.ts';

/** A fragment that is not valid percent-encoding: `decodeURIComponent` throws on it. */
export const BAD_FRAGMENT = '%E0%A4%A';

/**
 * Two pages (`:which` is `a` or `b`) that link to each other's element whose id is
 * BAD_FRAGMENT as written, far down the page, so a test can see the navigation reach it.
 */
export default function BadFragmentPage({ params }: Route.PageProps) {
  const here = params.which === 'b' ? 'b' : 'a';
  const there = here === 'a' ? 'b' : 'a';
  return (
    <main>
      <h1>{`Fragment page ${here.toUpperCase()}`}</h1>
      <Link id="to-other" href={`/fixtures/fragment/${there}#${BAD_FRAGMENT}`}>
        {`To page ${there.toUpperCase()}, at its target`}
      </Link>
      <Filler from={here.toUpperCase()} />
      <h2 id={BAD_FRAGMENT}>The target</h2>
      <Filler from={`${here.toUpperCase()}, after the target,`} />
    </main>
  );
}
