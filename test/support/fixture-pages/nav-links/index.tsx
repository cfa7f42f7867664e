import type { PageHead } from '../../../../shared/api/head.ts';
import { Link } from '../../../../shared/api/link.tsx';

export const head: PageHead = { title: 'Index' };

export default function Index() {
  return (
    <main>
      <h1>Index</h1>
      <Link id="to-deep" href="/nav-links/one/deep?from=index">
        Deep below one
      </Link>{' '}
      <Link id="to-two-slow" href="/nav-links/two?delay=1500">
        Two, slowly
      </Link>
    </main>
  );
}
