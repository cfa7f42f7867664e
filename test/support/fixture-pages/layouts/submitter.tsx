import type { PageHead } from '../../../../shared/head.ts';
import { Link } from '../../../../shared/link.tsx';
import { useFetcher } from '../../../../shared/fetcher.tsx';
import type { ActionContext } from '../../../../shared/route-definition.ts';
import { useLoaderData } from '../../../../shared/route-hooks.tsx';

export const head: PageHead = { title: 'Submitter' };

/** What this server process was sent, in order: the action adds to it, the load reads it. */
const received: string[] = [];

export function load(): { readonly received: readonly string[] } {
  return { received: [...received] };
}

/** Takes a name, slowly enough for a second submit to start while the first is under way. */
export async function action({ body }: ActionContext) {
  const name = String(body.name ?? '');
  await new Promise((resolve) => setTimeout(resolve, 300));
  received.push(name);
  return { took: name };
}

/**
 * `fetcher.submit()` called from code (not a form): once, and twice in a row, so the first
 * request is aborted by the second; a link to this very address, inside the shell and section
 * layouts (docs/building-an-app.md#fetchers).
 */
export default function Submitter() {
  const { received: seen } = useLoaderData<typeof load>();
  const fetcher = useFetcher<typeof action>();
  return (
    <main>
      <h1>Submitter</h1>
      <button type="button" id="submit-once" onClick={() => void fetcher.submit({ name: 'once' })}>
        Submit once
      </button>{' '}
      <button
        type="button"
        id="submit-twice"
        onClick={() => {
          void fetcher.submit({ name: 'first' });
          void fetcher.submit({ name: 'second' });
        }}
      >
        Submit twice
      </button>{' '}
      <output id="submitter-state">{fetcher.state}</output> <output id="submitter-took">{fetcher.data?.took ?? ''}</output>
      <p id="received">{seen.join(',')}</p>
      <Link id="to-here" href="/layouts/submitter">
        This page again
      </Link>
    </main>
  );
}
