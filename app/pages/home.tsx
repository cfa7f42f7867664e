import { SITE_NAME } from '../site.ts';
import type { PageHead } from 'react-stream-shell';
import type { Route } from './+types/home.ts';

export const head: PageHead = {
  title: 'Home',
  description: 'A React 19 page streamed by an Express 5 server and hydrated in the browser, with status pages, digests and security headers built in.',
};

/** The app's home: the site's header and a main landmark. */
export default function HomePage(_props: Route.PageProps) {
  return (
    <main className="app-main">
      <h1>{SITE_NAME}</h1>
      <p>The server streamed this page and the browser hydrated it.</p>
    </main>
  );
}
