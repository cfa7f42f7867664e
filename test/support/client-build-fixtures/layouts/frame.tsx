import { Outlet } from '../../../../shared/api/route-hooks.tsx';

/** A plain layout: a frame around its pages. */
export default function Frame() {
  return (
    <section>
      FRAME-LAYOUT-MARKER <Outlet />
    </section>
  );
}
