import type { FetcherAnswer } from '../../shared/api/navigation.ts';
import { requestData } from './data-request.ts';
import type { Go } from './go-options.ts';
import { isMeta, lines, redirectOf, runScripts } from './page-answer.ts';
import type { RuntimeHost } from './runtime-host.ts';

/**
 * A fetcher's requests (Navigator.fetch): each answer rebuilt in a scope of its own, the page
 * left as it is. The router's own pieces are passed in as they are, no wrapper made for them:
 * `fetch`, its prefetches (a post forgets them), `follow` (where a redirect said, in place when
 * it can be), `run` (a data script) and what it borrows of the first load's code (`host`).
 */
export function createFetcherRequest(
  fetch: typeof globalThis.fetch,
  prefetched: Map<string, unknown>,
  follow: (url: URL, options: Go) => Promise<void>,
  run: (code: string) => void,
  { submissionOf, valueIn }: Pick<RuntimeHost, 'submissionOf' | 'valueIn'>,
): (url: URL, body: URLSearchParams | undefined, signal: AbortSignal) => Promise<FetcherAnswer> {
  let count = 0;
  return async function fetchData(url, body, signal) {
    count += 1;
    const scope = `f${count}`;
    // A post may sign the visitor in or out: no prefetch made before it stands in for a page after it.
    if (body !== undefined) prefetched.clear();
    const response = await requestData(fetch, url, scope, [], signal, body, body !== undefined);
    const target = redirectOf(response);
    if (target !== undefined) {
      // As React Router does: the action's redirect is a navigation, every level loaded afresh.
      return { navigation: follow(target, { hops: 1, revalidate: true, after: body === undefined ? undefined : submissionOf(url, body) }) };
    }
    const type = response.headers.get('content-type') ?? '';
    if (type.startsWith('application/json')) return { status: response.status, value: await response.json(), json: true };
    if (!type.startsWith('application/x-ndjson')) throw new Error('no page');
    const stream = lines(response);
    // A page's data comes after its meta line; a fetcher's post is answered with the value alone.
    let script: unknown;
    do script = (await stream.next()).value;
    while (isMeta(script));
    if (typeof script !== 'string') throw new Error('no page');
    run(script);
    void runScripts(stream, signal, run).catch(() => undefined);
    return { status: response.status, value: valueIn(scope), json: false };
  };
}
