import type { PageHead } from '../../../shared/api/head.ts';
import { Link } from '../../../shared/api/link.tsx';
import { redirect } from '../../../shared/api/answers.ts';
import type { LoadContext, PageProps } from '../../../shared/api/route-definition.ts';

export const LOAD_REDIRECT_PATH = '/fixtures/load-redirect';
/** A resource route (load-redirect-resource.ts): no page, so the browser loads it in full. */
export const LOAD_REDIRECT_RESOURCE = '/fixtures/load-redirect/resource';

export interface LoadRedirectData {
  /** Redirects this request was still asked to make: 0 here, once every one was followed. */
  readonly hops: number;
  /** The cookie the last redirect set, as this request sent it back. */
  readonly cookie: string | null;
}

export const head: PageHead = { title: 'Load redirect' };

/**
 * `?hops=N`: `load` redirects to this page with one hop fewer, setting a cookie that says how
 * many were left, until none is (docs/responses.md). One hop shows an in-place navigation
 * landing on the target; many show the runtime's cap on a chain. `?to=resource`: to a resource route.
 */
export function load({ searchParams, cookies }: LoadContext): LoadRedirectData {
  if (searchParams.get('to') === 'resource') redirect(LOAD_REDIRECT_RESOURCE);
  const hops = Number(searchParams.get('hops') ?? 0);
  if (hops > 0) redirect(`${LOAD_REDIRECT_PATH}?hops=${hops - 1}`, { headers: { 'Set-Cookie': `hopped=${hops}; Path=/; SameSite=Lax` } });
  return { hops, cookie: cookies.hopped ?? null };
}

export default function LoadRedirect({ data }: PageProps<LoadRedirectData>) {
  return (
    <main>
      <h1>Load redirect</h1>
      <p id="hops">hops left: {data.hops}</p>
      <p id="cookie">cookie: {data.cookie ?? 'none'}</p>
      <Link id="one-hop" href={`${LOAD_REDIRECT_PATH}?hops=1`}>
        Through one redirect
      </Link>
      <Link id="many-hops" href={`${LOAD_REDIRECT_PATH}?hops=15`}>
        Through fifteen redirects
      </Link>
      <Link id="to-resource" href={`${LOAD_REDIRECT_PATH}?to=resource`}>
        Through a redirect to a resource
      </Link>
    </main>
  );
}
