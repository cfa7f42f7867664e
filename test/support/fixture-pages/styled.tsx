import type { PageHead } from '../../../shared/api/head.ts';
import { Link } from '../../../shared/api/link.tsx';
import './styled.css';

export const head: PageHead = { title: 'Styled', description: 'A page with a stylesheet of its own.' };

/** A page whose look comes from its own stylesheet, reached in place from the plain page. */
export default function Styled() {
  return (
    <main>
      <h1 className="styled-heading">Styled page</h1>
      <Link id="to-plain" href="/styles/plain">
        Back to the plain page
      </Link>
    </main>
  );
}
