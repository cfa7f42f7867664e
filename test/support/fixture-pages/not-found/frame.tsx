import type { LayoutHead } from '../../../../shared/api/head.ts';
import { Link } from '../../../../shared/api/link.tsx';
import { Outlet, useLoaderData } from '../../../../shared/api/route-hooks.tsx';

export interface FrameData {
  readonly served: string;
}

export const head: LayoutHead = { description: "The not-found fixtures' layout." };

export function load(): FrameData {
  return { served: 'FRAME-DATA' };
}

/** The layout that names the not-found page: its header stays while a missing address shows inside it. */
export default function NotFoundFrame() {
  const { served } = useLoaderData<typeof load>();
  return (
    <>
      <header className="nf-frame">
        <p>Not-found frame ({served})</p>
        <nav aria-label="Not-found fixtures">
          <Link id="to-home" href="/not-found/home">
            Home
          </Link>{' '}
          <Link id="to-missing" href="/not-found/nowhere/at-all">
            Missing
          </Link>
        </nav>
      </header>
      <Outlet />
    </>
  );
}
