import { NAVIGATION_REDIRECT_HEADER } from '../../shared/protocol/navigation-headers.ts';
import type { EmbeddedPageData, LayoutData, PageDataMeta } from '../../shared/protocol/page-data.ts';
import type { RouteModule, View } from '../view.ts';

/** Lines of the page-data answer (server/render/page-data-answer.ts) as they arrive. */
export async function* lines(response: Response): AsyncGenerator<unknown> {
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader();
  if (reader === undefined) return;
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    // Every piece but the last is a whole line; the last waits for the rest of its line.
    const pieces = (buffered + value).split('\n');
    buffered = pieces.pop() ?? '';
    for (const line of pieces) yield JSON.parse(line);
  }
}

/** The meta line of a data answer, told from its scripts (strings) by the field only it has. */
export function isMeta(value: unknown): value is PageDataMeta {
  return 'assets' in Object(value);
}

/** Runs a data answer's scripts still to come, as they arrive: deferred values settle in place. */
export async function runScripts(stream: AsyncGenerator<unknown>, signal: AbortSignal, run: (code: string) => void): Promise<void> {
  for await (const script of stream) {
    if (signal.aborted) break;
    if (typeof script === 'string') run(script);
  }
}

/**
 * The branch's modules a page's entry exports (`modules`): each with a component as its default
 * export. How many there must be is the caller's to check, against the page's layouts: none is
 * never enough.
 */
export function routeModulesOf(module: unknown): readonly RouteModule[] | undefined {
  // Object(): any value, null and primitives too, read as an object whose fields may be missing.
  const { modules } = Object(module) as { readonly modules?: unknown };
  if (!Array.isArray(modules)) return undefined;
  return modules.every((candidate: unknown) => typeof (Object(candidate) as { readonly default?: unknown }).default === 'function') ? modules : undefined;
}

/** The page's data with each layout the server left out (`kept`) filled from the view on the screen; `undefined` when one is not there. */
export function withKeptLayouts(page: EmbeddedPageData, current: View): EmbeddedPageData | undefined {
  const layouts = page.layouts;
  if (layouts === undefined || !layouts.some((layout) => layout.kept === true)) return page;
  const had = 'page' in current ? (current.page.layouts ?? []) : [];
  const filled: LayoutData[] = [];
  for (const layout of layouts) {
    const kept = layout.kept === true ? had.find((candidate) => candidate.id === layout.id && candidate.kept !== true) : layout;
    if (kept === undefined) return undefined;
    filled.push(kept);
  }
  return { ...page, layouts: filled };
}

/** Where an answer's `X-Navigation-Redirect` sends the browser, if it has one: on this origin only, whatever sent the header (the server never names another). */
export function redirectOf(response: Response): URL | undefined {
  const header = response.headers.get(NAVIGATION_REDIRECT_HEADER);
  if (header === null) return undefined;
  const target = new URL(header, location.href);
  // A plain Error: the console says why, and the caller fails as for any broken answer.
  if (target.origin !== location.origin) throw new Error(`${NAVIGATION_REDIRECT_HEADER} refused: ${target.origin}`);
  return target;
}

/**
 * The view of a form post that failed once it was on its way: the client-side error page of
 * the root error boundary, reached as any exception reaches it (its page throws), so it has
 * the same words, console line, error report and development detail.
 */
export function failedSubmission(key: number, error: unknown): View {
  return {
    key,
    page: { data: undefined, params: {} },
    modules: [
      {
        // It closes over this failure's error; each failed post is a new view with its own key anyway.
        default: function FailedSubmission(): never {
          throw error;
        },
      },
    ],
  };
}

/** A status page's answer, as JSON, as its view: the same words as the full page (the app's, in the request's language, docs/status-pages.md). */
export async function statusView(
  response: Response,
  key: number,
  statusMessage: (status: number) => string,
): Promise<View & { readonly status: number; readonly message: string }> {
  const { digest, message } = Object(await response.json()) as { readonly digest?: unknown; readonly message?: unknown };
  const { status } = response;
  return { key, status, message: typeof message === 'string' ? message : statusMessage(status), digest: typeof digest === 'string' ? digest : undefined };
}
