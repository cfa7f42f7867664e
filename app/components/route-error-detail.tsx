import { isRouteErrorResponse, Link, useRouteError } from 'react-stream-shell';

/** What a boundary of the app says under its heading: the status, or the digest to quote, and a way back. */
export function RouteErrorDetail() {
  const error = useRouteError();
  const digest = error instanceof Error && 'digest' in error && typeof error.digest === 'string' ? error.digest : undefined;
  return (
    <>
      <p>{isRouteErrorResponse(error) ? error.statusText : 'Something went wrong on our side. Try again in a moment.'}</p>
      {digest === undefined ? null : <p className="digest">Digest: {digest}</p>}
      <p>
        <Link href="/guestbook">Back to the guest book</Link>
      </p>
    </>
  );
}
