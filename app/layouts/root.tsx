import { type LoadContext, Outlet, type ShouldRevalidateArgs, useLoaderData } from 'react-stream-shell';
import { SiteHeader } from '../components/site-header.tsx';
import '../styles/site.css';

/** Who is signed in, for the header: loaded again after every post, so signing in or out shows at once. */
export function load({ context }: LoadContext) {
  return { visitor: context.session.get('visitor') ?? null };
}

/** A like changes nobody's sign-in: the header keeps its data (and the session is not read again). */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateArgs): boolean {
  return formData?.get('intent') === 'like' ? false : defaultShouldRevalidate;
}

/** The root layout: the site's header and footer around every page of the app. */
export default function RootLayout() {
  const { visitor } = useLoaderData<typeof load>();
  return (
    <>
      {/* The first thing the keyboard reaches: past the header's links to the page (WCAG 2.4.1). */}
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <SiteHeader visitor={visitor} />
      <div id="content" tabIndex={-1}>
        <Outlet />
      </div>
      <footer className="app-footer">
        <p>Streamed by React 19 from Express 5.</p>
      </footer>
    </>
  );
}
