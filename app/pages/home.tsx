import { APP_NAME } from '../../shared/app-info.ts';
import type { PageHead } from '../../shared/head.ts';
import { Link } from '../../shared/link.tsx';
import type { PageProps } from '../../shared/route-definition.ts';
import '../styles/site.css';

export const head: PageHead = {
  title: 'Home',
  description: 'A React 19 page streamed by an Express 5 server and hydrated in the browser, with status pages, digests and security headers built in.',
};

/** The product's shell: header with the application's name and a main landmark. */
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
