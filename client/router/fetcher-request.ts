import type { ShowFetcher, Submission } from '../../shared/api/navigation.ts';
import { requestData } from './data-request.ts';
import type { Go } from './go-options.ts';
import { isMeta, lines, redirectOf, runScripts } from './page-answer.ts';
import type { routeErrorOf } from '../../shared/api/route-errors.tsx';
import type { valueIn as valueInScope } from '../page-data.ts';

/** What a fetcher's request brought back. */
export type FetcherAnswer =
  /** The action redirected: the runtime goes there as a navigation, which this settles with. */
  | { readonly navigation: Promise<void> }
  /**
   * The page-data scope's value, built by its scripts (`{ actionData }` after a post, the page's
   * data after a load), or JSON (`json`: a status page, or a resource route's value).
   */
  | { readonly status: number; readonly value: unknown; readonly json: boolean };

/** The page loaded again after a post (Navigator.revalidate). */
type Revalidate = (onShow: () => void, after?: Submission) => Promise<void>;

/** How a failure is told: as a route error (the first load's `routeErrorOf`, runtime-host.ts), in the words of a status (the full table, status-messages.ts). */
interface Wording {
  readonly routeErrorOf: typeof routeErrorOf;
  readonly statusMessage: (status: number) => string;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? Reflect.get(value, name) : undefined;
}

/**
 * What a route's `useRouteError()` would give for a failed answer: its status, in the words of
 * the server's answer (a status page's JSON `message`, in the app's language; a failed load's
 * `statusText`), or for a server error the digest of its log line.
 */
function failureOf(status: number, payload: unknown, { routeErrorOf, statusMessage }: Wording): unknown {
  const digest = field(payload, 'digest');
  const words = field(payload, 'message') ?? field(payload, 'statusText');
  return routeErrorOf({ status, statusText: typeof words === 'string' ? words : statusMessage(status), ...(typeof digest === 'string' ? { digest } : {}) });
}

/**
 * What a fetcher shows once its answer is in, after its first state (Navigator.fetch): where its
 * action redirected, as a navigation; its result; after a post that did not fail, the page
 * loaded again, the fetcher idle in the same render as the page's new data, so an optimistic
 * value never counts twice (React Router's default). A failure is thrown, as `useRouteError()`
 * would give it. `posted` is the post's submission; a load has none.
 */
export async function showFetcherAnswer(answer: FetcherAnswer, posted: Submission | undefined, show: ShowFetcher, revalidate: Revalidate, wording: Wording): Promise<void> {
  if ('navigation' in answer) {
    show('loading', undefined);
    await answer.navigation;
    show('idle', undefined);
    return;
  }
  const { status, value, json } = answer;
  if (json && status >= 400) throw failureOf(status, value, wording);
  const failure = field(value, 'failure');
  if (failure !== undefined) throw failureOf(status, field(failure, 'error'), wording);
  const result = json ? value : field(value, posted === undefined ? 'data' : 'actionData');
  if (posted !== undefined && status < 400) {
    show('loading', result);
    await revalidate(() => show('idle', result), { ...posted, actionResult: result });
    return;
  }
  show('idle', result);
}

/**
 * A fetcher's requests (Navigator.fetch): each answer rebuilt in a scope of its own, the page
 * left as it is. The router's own pieces are passed in as they are, no wrapper made for them:
 * `fetch`, its prefetches (a post forgets them), `follow` (where a redirect said, in place when
 * it can be), `run` (a data script), `revalidate`, and what it borrows of the first load's code:
 * `valueIn` (a scope's value) and how a failure is told (`wording`).
 */
export function createFetcherRequest(
  fetch: typeof globalThis.fetch,
  prefetched: Map<string, unknown>,
  follow: (url: URL, options: Go) => Promise<void>,
  run: (code: string) => void,
  revalidate: Revalidate,
  valueIn: typeof valueInScope,
  wording: Wording,
): (url: URL, body: URLSearchParams | undefined, signal: AbortSignal, show: ShowFetcher, posted: Submission | undefined) => Promise<void> {
  let count = 0;
  async function answerOf(url: URL, body: URLSearchParams | undefined, signal: AbortSignal, posted: Submission | undefined): Promise<FetcherAnswer> {
    count += 1;
    const scope = `f${count}`;
    // A post may sign the visitor in or out: no prefetch made before it stands in for a page after it.
    if (body !== undefined) prefetched.clear();
    const response = await requestData(fetch, url, scope, [], signal, body, body !== undefined);
    const target = redirectOf(response);
    // As React Router does: the action's redirect is a navigation, every level loaded afresh.
    if (target !== undefined) return { navigation: follow(target, { hops: 1, revalidate: true, after: posted }) };
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
  }
  return async function fetchData(url, body, signal, show, posted) {
    await showFetcherAnswer(await answerOf(url, body, signal, posted), posted, show, revalidate, wording);
  };
}
