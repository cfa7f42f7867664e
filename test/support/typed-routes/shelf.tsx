import { Outlet, useParams } from '../../../shared/api/route-hooks.tsx';
import type { Route } from './+types/shelf.ts';

/** A layout's load is given no path parameters: what it sees of them, for the test to read. */
export function load({ params }: Route.LoadContext) {
  return { seen: Object.keys(params).join(',') || 'none' };
}

/** Its component is given the page's: any of its pages' paths', each maybe absent. */
export default function ShelfLayout({ data }: Route.PageProps) {
  const { id, shelf, name } = useParams<Route.Params>();
  return (
    <section>
      <p id="shelf">{`layout load saw ${data.seen}; id ${id ?? '-'}, shelf ${shelf ?? '-'}, name ${name ?? '-'}`}</p>
      <Outlet />
    </section>
  );
}
