import { Outlet } from '../../../../shared/api/route-hooks.tsx';

/** A module that is a page on one route and a layout around another: it may export what either reads. */
export default function PageAndLayout() {
  return (
    <section>
      BOTH <Outlet />
    </section>
  );
}

export async function action() {
  return { saved: true };
}

export function shouldRevalidate() {
  return true;
}
