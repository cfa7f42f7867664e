import { Outlet } from 'react-stream-shell';
import './root.css';

export default function Root() {
  return (
    <main id="content">
      <Outlet />
    </main>
  );
}
