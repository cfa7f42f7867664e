import { Outlet } from '../../../../shared/api/route-hooks.tsx';

/** A layout that exports an action, as if posts to its pages went to it: the build must refuse it. */
export default function LayoutWithAction() {
  return (
    <section>
      <Outlet />
    </section>
  );
}

export async function action() {
  return { saved: true };
}
