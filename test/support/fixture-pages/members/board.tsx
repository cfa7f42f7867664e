import type { LayoutHead } from '../../../../shared/api/head.ts';
import { Link } from '../../../../shared/api/link.tsx';
import { Outlet, useLoaderData } from '../../../../shared/api/route-hooks.tsx';

export const head: LayoutHead = { titleTemplate: '%s · Board' };

/** Loaded with the board's own page, it is answered no-store, as every page by default. */
export function load(): { readonly boardServedAt: string } {
  return { boardServedAt: new Date().toISOString() };
}

/** A layout around the public notice and a page of its own. */
export default function Board() {
  const { boardServedAt } = useLoaderData<typeof load>();
  return (
    <div>
      <header>
        <p id="board-served-at">{boardServedAt}</p>
        <Link id="to-notice" href="/members/notice">
          The public notice
        </Link>
        <Link id="to-board" href="/members/board">
          The board
        </Link>
        <Link id="to-sign-in" href="/members/sign-in">
          Sign in
        </Link>
      </header>
      <Outlet />
    </div>
  );
}
