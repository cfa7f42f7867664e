import { Outlet, type ShouldRevalidateArgs } from 'react-stream-shell';
import './root.css';

/** Not a component: an edit of the layout's markup is still applied in place while it stays as written. */
export function shouldRevalidate({ defaultShouldRevalidate }: ShouldRevalidateArgs): boolean {
  return defaultShouldRevalidate;
}

export default function Root() {
  return (
    <main id="content">
      <Outlet />
    </main>
  );
}
