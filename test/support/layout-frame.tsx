import { Outlet } from '../../shared/api/route-hooks.tsx';

/** A layout for the layout tests: a marker the test finds in the body, then the level below. */
export function Frame() {
  return (
    <div>
      FRAME <Outlet />
    </div>
  );
}
