import { APP_NAME } from '../../../shared/wording/app-info.ts';
import type { PageHead } from '../../../shared/api/head.ts';
import { Link } from '../../../shared/api/link.tsx';
import type { PageProps } from '../../../shared/api/route-definition.ts';
import './home.css';

export const head: PageHead = {
  title: 'Home',
  description: 'A React 19 page streamed by an Express 5 server and hydrated in the browser, with status pages, digests and security headers built in.',
};

/** The framework's own home page for its tests: a header with the site's name and a main landmark, as an app's shell has. */
export default function HomePage(_props: PageProps) {
  return (
    <>
      <header className="app-header">
        <Link href="/" className="app-name">
          {APP_NAME}
        </Link>
      </header>
      <main className="app-main">
        <h1>{APP_NAME}</h1>
        <p>The server streamed this page and the browser hydrated it.</p>
      </main>
    </>
  );
}
