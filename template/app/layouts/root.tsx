import { isRouteErrorResponse, Link, Outlet, ServerRouteError, useRouteError } from 'react-stream-shell';

/** The frame of every page: a header, then the page. */
export default function Root() {
  return (
    <>
      <header>
        <Link href="/">My app</Link>
      </header>
      <main id="content">
        <Outlet />
      </main>
    </>
  );
}

/** Shown in the page's place when its load or render fails: the status, or a server error's digest for the logs. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) return <p>{error.statusText}</p>;
  return (
    <>
      <p>Something went wrong on our side.</p>
      {error instanceof ServerRouteError ? <p className="digest">Digest: {error.digest}</p> : null}
    </>
  );
}
