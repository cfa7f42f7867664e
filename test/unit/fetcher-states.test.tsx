import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { type Fetcher, type FetcherInFlight, useFetcher, useFetchers } from '../../shared/api/fetcher.tsx';
import { FormTokenContext, installNavigator, type Submission } from '../../shared/api/navigation.ts';
import { isRouteErrorResponse, routeErrorOf, ServerRouteError } from '../../shared/api/route-errors.tsx';
import { type FetcherAnswer, showFetcherAnswer } from '../../client/router/fetcher-request.ts';
import { FORM_TOKEN_FIELD } from '../../shared/protocol/form-token-field.ts';
import { statusMessage } from '../../shared/wording/status-messages.ts';
import { type HeadlessRoot, headlessRoot } from '../support/headless-root.ts';

/**
 * What a fetcher shows as its requests go (shared/api/fetcher.tsx, docs/building-an-app.md#fetchers),
 * mounted in a React client root in Node, with the navigation runtime stood in for: its
 * answers come when a test gives them. What each request asks of the runtime, and each state the
 * component renders on the way, is what the browser tests see through a page
 * (test/browser/fetchers.test.ts); here every branch gets its own answer, in a few milliseconds.
 */

interface Asked {
  readonly url: URL;
  readonly body: URLSearchParams | undefined;
  readonly signal: AbortSignal;
  readonly answer: (answer: FetcherAnswer) => void;
  readonly fail: (error: unknown) => void;
}

interface Revalidation {
  readonly after: Submission | undefined;
  /** Shows the page again: runs the fetcher's `onShow`, then settles. */
  readonly finish: () => void;
}

const asked: Asked[] = [];
const revalidations: Revalidation[] = [];

function revalidate(onShow: () => void, after?: Submission): Promise<void> {
  return new Promise((resolve) =>
    revalidations.push({
      after,
      finish: () => {
        onShow();
        resolve();
      },
    }),
  );
}

// Once per file: the fetcher waits for the first runtime installed. Its answers are read as the
// runtime reads them (showFetcherAnswer, client/router/fetcher-request.ts); only the network is stood in for.
installNavigator({
  navigate: () => false,
  submit: () => false,
  prefetch: () => undefined,
  fetch: (url, body, signal, show, posted) =>
    new Promise<FetcherAnswer>((resolve, reject) => asked.push({ url, body, signal, answer: resolve, fail: reject })).then((answer) =>
      showFetcherAnswer(answer, posted, show, revalidate, { routeErrorOf, statusMessage }),
    ),
  revalidate,
});

/** What a component showing a fetcher rendered, each time. */
interface Watched {
  /** The fetcher as last rendered. */
  readonly now: () => Fetcher<unknown>;
  /** `useFetchers()` as last rendered. */
  readonly inFlight: () => readonly FetcherInFlight[];
  /** Each state it rendered, a repeat left out. */
  readonly states: string[];
  readonly root: HeadlessRoot;
}

function Watch({ fetcherKey, onRender }: { readonly fetcherKey: string | undefined; readonly onRender: (fetcher: Fetcher<unknown>, all: readonly FetcherInFlight[]) => void }) {
  const fetcher = useFetcher(fetcherKey === undefined ? undefined : { key: fetcherKey });
  onRender(fetcher, useFetchers());
  return null;
}

/** A fetcher as the server renders it. */
function Shown() {
  const fetcher = useFetcher();
  return <p>{`${fetcher.state} ${useFetchers().length}`}</p>;
}

const roots: HeadlessRoot[] = [];

/** Mounts a component showing the fetcher of `key` (its own when none), on a page whose form token is `token`. */
function watch(key?: string, token = 'page-token'): Watched & { readonly withToken: (token: string) => void } {
  let fetcher: Fetcher<unknown> | undefined;
  let all: readonly FetcherInFlight[] = [];
  const states: string[] = [];
  const root = headlessRoot();
  roots.push(root);
  const onRender = (next: Fetcher<unknown>, nextAll: readonly FetcherInFlight[]) => {
    fetcher = next;
    all = nextAll;
    if (states.at(-1) !== next.state) states.push(next.state);
  };
  const withToken = (value: string) =>
    root.render(
      <FormTokenContext value={value}>
        <Watch fetcherKey={key} onRender={onRender} />
      </FormTokenContext>,
    );
  withToken(token);
  return {
    now: () => {
      if (fetcher === undefined) throw new Error('not rendered');
      return fetcher;
    },
    inFlight: () => all,
    states,
    root,
    withToken,
  };
}

/** The request the runtime was asked for last, once it has been. */
async function lastAsked(count: number): Promise<Asked> {
  await vi.waitFor(() => expect(asked).toHaveLength(count));
  const request = asked.at(-1);
  if (request === undefined) throw new Error('nothing asked');
  return request;
}

/**
 * Lets an answer given just now reach the screen: its promise's reactions, then the render React
 * schedules for a state set outside an event (a macrotask each). For what must NOT show.
 */
async function rendered(): Promise<void> {
  for (let round = 0; round < 10; round += 1) await new Promise((resolve) => setImmediate(resolve));
}

async function shows(watched: Watched, state: string): Promise<void> {
  await vi.waitFor(() => expect(watched.now().state).toBe(state));
}

beforeEach(() => {
  vi.stubGlobal('location', { href: 'http://localhost/guests?page=1' });
});

afterEach(() => {
  for (const root of roots.splice(0)) root.unmount();
  asked.splice(0);
  revalidations.splice(0);
  vi.unstubAllGlobals();
});

/** A fetcher's Form with attributes and a field of its own. */
function TokenForm() {
  const fetcher = useFetcher({ key: 'form' });
  return (
    <fetcher.Form action="/guests" id="add">
      <input name="name" />
    </fetcher.Form>
  );
}

describe('a fetcher in the browser', () => {
  test("loads a page's data: loading, listed by useFetchers with its key, then idle with the data", async () => {
    const watched = watch('load-data');
    expect(watched.now().state).toBe('idle');
    void watched.now().load('/menu?day=2');
    const request = await lastAsked(1);
    expect(request.url.href).toBe('http://localhost/menu?day=2');
    expect(request.body).toBeUndefined();
    await shows(watched, 'loading');
    expect(watched.inFlight()).toEqual([{ key: 'load-data', state: 'loading', data: undefined, error: undefined }]);
    expect(watched.now().formData).toBeUndefined();
    request.answer({ status: 200, value: { data: { dishes: 3 }, actionData: 'not this' }, json: false });
    await shows(watched, 'idle');
    expect(watched.now().data).toEqual({ dishes: 3 });
    expect(watched.inFlight()).toEqual([]);
    expect(watched.states).toEqual(['idle', 'loading', 'idle']);
    expect(revalidations).toHaveLength(0);
  });

  test("posts the fields with the page's form token to the page's own address, shows them until the page has its new data, then idle with the result", async () => {
    const watched = watch('post');
    void watched.now().submit({ name: 'Ada' });
    const request = await lastAsked(1);
    expect(request.url.href).toBe('http://localhost/guests?page=1');
    expect(request.body?.toString()).toBe(`name=Ada&${FORM_TOKEN_FIELD}=page-token`);
    await shows(watched, 'submitting');
    const submitting = watched.now();
    expect(submitting.formAction).toBe('/guests?page=1');
    expect(submitting.formMethod).toBe('POST');
    expect([...(submitting.formData?.entries() ?? [])]).toEqual([['name', 'Ada']]);
    expect(watched.inFlight()).toMatchObject([{ key: 'post', state: 'submitting', formAction: '/guests?page=1', formMethod: 'POST' }]);

    request.answer({ status: 200, value: { actionData: { added: 'Ada' }, data: 'not this' }, json: false });
    await shows(watched, 'loading');
    expect(watched.now().data).toEqual({ added: 'Ada' });
    expect(watched.now().formMethod).toBe('POST');
    await vi.waitFor(() => expect(revalidations).toHaveLength(1));
    const [revalidation] = revalidations;
    expect(revalidation?.after?.formAction).toBe('/guests?page=1');
    expect([...(revalidation?.after?.formData.entries() ?? [])]).toEqual([['name', 'Ada']]);
    expect(revalidation?.after?.actionResult).toEqual({ added: 'Ada' });

    revalidation?.finish();
    await shows(watched, 'idle');
    const idle = watched.now();
    expect(idle.data).toEqual({ added: 'Ada' });
    expect([idle.formData, idle.formAction, idle.formMethod]).toEqual([undefined, undefined, undefined]);
    expect(watched.states).toEqual(['idle', 'submitting', 'loading', 'idle']);
  });

  test('posts to the action named, keeps a form token the fields carry, leaves files out, and sends the token the page has now', async () => {
    const watched = watch('post-form');
    const form = new FormData();
    form.append('name', 'Bo');
    form.append(FORM_TOKEN_FIELD, 'own-token');
    form.append('photo', new Blob(['bytes']), 'photo.png');
    void watched.now().submit(form, { action: '/guests/new?from=list' });
    const first = await lastAsked(1);
    expect(first.url.href).toBe('http://localhost/guests/new?from=list');
    expect(first.body?.toString()).toBe(`name=Bo&${FORM_TOKEN_FIELD}=own-token`);
    first.answer({ status: 422, value: { actionData: { errors: { name: 'taken' } } }, json: false });
    await shows(watched, 'idle');

    watched.withToken('newer-token');
    void watched.now().submit(new URLSearchParams({ name: 'Cy' }));
    const second = await lastAsked(2);
    expect(second.body?.get(FORM_TOKEN_FIELD)).toBe('newer-token');
    second.answer({ status: 422, value: { actionData: null }, json: false });
    await shows(watched, 'idle');
  });

  test('an action that refuses the post (422) shows its result at once, without loading the page again', async () => {
    const watched = watch('refused');
    void watched.now().submit({ name: '' });
    (await lastAsked(1)).answer({ status: 422, value: { actionData: { errors: { name: 'Enter a name.' } } }, json: false });
    await shows(watched, 'idle');
    expect(watched.now().data).toEqual({ errors: { name: 'Enter a name.' } });
    expect(watched.now().formData).toBeUndefined();
    expect(watched.states).toEqual(['idle', 'submitting', 'idle']);
    // From 400 on: a 400 is a refusal too.
    void watched.now().submit({ name: '?' });
    (await lastAsked(2)).answer({ status: 400, value: { actionData: 'bad request' }, json: false });
    await vi.waitFor(() => expect(watched.now().data).toBe('bad request'));
    expect(watched.now().state).toBe('idle');
    expect(revalidations).toHaveLength(0);
  });

  test("a JSON answer is the data itself under 400, and the error useRouteError would give from 400: a status, or a server error's digest", async () => {
    const watched = watch('json');
    void watched.now().load('/api/items');
    (await lastAsked(1)).answer({ status: 200, value: { items: [1, 2] }, json: true });
    await vi.waitFor(() => expect(watched.now().data).toEqual({ items: [1, 2] }));

    void watched.now().load('/api/missing');
    (await lastAsked(2)).answer({ status: 400, value: { status: 400 }, json: true });
    await vi.waitFor(() => expect(watched.now().error).toBeDefined());
    const missing = watched.now().error;
    expect(isRouteErrorResponse(missing) ? [missing.status, missing.statusText] : missing).toEqual([400, statusMessage(400)]);
    expect(watched.now().data).toBeUndefined();

    void watched.now().load('/api/broken');
    (await lastAsked(3)).answer({ status: 500, value: { digest: 'a1b2c3' }, json: true });
    await vi.waitFor(() => expect(watched.now().error).toBeInstanceOf(ServerRouteError));
    const broken = watched.now().error;
    expect(broken instanceof ServerRouteError ? broken.digest : broken).toBe('a1b2c3');
  });

  test("a failed answer's words are the server's: a status page's JSON message (the app's, in the request's language), else the status's own", async () => {
    const watched = watch('words');
    void watched.now().load('/api/secret');
    (await lastAsked(1)).answer({ status: 403, value: { status: 403, message: 'Accès refusé.' }, json: true });
    await vi.waitFor(() => expect(watched.now().error).toBeDefined());
    const refused = watched.now().error;
    expect(isRouteErrorResponse(refused) ? [refused.status, refused.statusText] : refused).toEqual([403, 'Accès refusé.']);

    void watched.now().load('/reports');
    (await lastAsked(2)).answer({ status: 404, value: { failure: { at: 0, error: { status: 404, statusText: 'Page introuvable.' } } }, json: false });
    await vi.waitFor(() => expect(isRouteErrorResponse(watched.now().error) && watched.now().error).toMatchObject({ status: 404 }));
    const missing = watched.now().error;
    expect(isRouteErrorResponse(missing) ? missing.statusText : missing).toBe('Page introuvable.');
  });

  test("a failed load in the page's data is the fetcher's error, with the answer's status and the failure's digest", async () => {
    const watched = watch('failure');
    void watched.now().load('/reports');
    (await lastAsked(1)).answer({ status: 500, value: { failure: { at: 0, error: { status: 500, digest: 'f00d' } } }, json: false });
    await vi.waitFor(() => expect(watched.now().error).toBeInstanceOf(ServerRouteError));
    const error = watched.now().error;
    expect(error instanceof ServerRouteError ? error.digest : error).toBe('f00d');
    expect(watched.now().state).toBe('idle');

    void watched.now().load('/reports?who=else');
    (await lastAsked(2)).answer({ status: 403, value: { failure: { at: 0, error: { status: 403 } } }, json: false });
    await vi.waitFor(() => expect(isRouteErrorResponse(watched.now().error)).toBe(true));
    expect(watched.now().error).toEqual({ status: 403, statusText: statusMessage(403), data: undefined });
  });

  test('an action that redirects: loading, without data, while the runtime goes there, then idle', async () => {
    const watched = watch('redirect');
    void watched.now().submit({ name: 'away' });
    let arrive = () => {};
    (await lastAsked(1)).answer({
      navigation: new Promise<void>((resolve) => {
        arrive = resolve;
      }),
    });
    await shows(watched, 'loading');
    expect(watched.now().data).toBeUndefined();
    expect(watched.now().formData).toBeDefined();
    arrive();
    await shows(watched, 'idle');
    expect(watched.now().formData).toBeUndefined();
    expect(revalidations).toHaveLength(0);
  });

  test('no answer (the network): idle with the error, the data it had dropped', async () => {
    const watched = watch('offline');
    void watched.now().load('/menu');
    (await lastAsked(1)).answer({ status: 200, value: { data: 'first' }, json: false });
    await vi.waitFor(() => expect(watched.now().data).toBe('first'));
    void watched.now().load('/menu');
    const second = await lastAsked(2);
    await shows(watched, 'loading');
    // What the last request brought stays while the next one runs.
    expect(watched.now().data).toBe('first');
    const offline = new TypeError('Failed to fetch');
    second.fail(offline);
    await vi.waitFor(() => expect(watched.now().error).toBe(offline));
    expect(watched.now()).toMatchObject({ state: 'idle', data: undefined });
  });

  test('a newer request aborts the one under way, whose answer is dropped', async () => {
    const watched = watch('newer');
    void watched.now().load('/a');
    const first = await lastAsked(1);
    void watched.now().load('/b');
    const second = await lastAsked(2);
    expect(first.signal.aborted).toBe(true);
    expect(second.signal.aborted).toBe(false);
    second.answer({ status: 200, value: { data: 'from b' }, json: false });
    await shows(watched, 'idle');
    first.answer({ status: 200, value: { data: 'from a' }, json: false });
    await rendered();
    expect(watched.now().data).toBe('from b');
    expect(watched.states).toEqual(['idle', 'loading', 'idle']);
  });

  test('reset: back to idle without data or error, the request under way aborted and its answer dropped', async () => {
    const watched = watch('reset');
    void watched.now().load('/a');
    (await lastAsked(1)).answer({ status: 200, value: { data: 'kept' }, json: false });
    await vi.waitFor(() => expect(watched.now().data).toBe('kept'));
    void watched.now().load('/b');
    const running = await lastAsked(2);
    await shows(watched, 'loading');
    watched.now().reset();
    await shows(watched, 'idle');
    expect(running.signal.aborted).toBe(true);
    expect(watched.now().data).toBeUndefined();
    expect(watched.inFlight()).toEqual([]);
    running.answer({ status: 200, value: { data: 'too late' }, json: false });
    await rendered();
    expect(watched.now().data).toBeUndefined();
    expect(watched.states).toEqual(['idle', 'loading', 'idle', 'loading', 'idle']);
  });

  test('hooks without a key are fetchers of their own; with one key they share one, which a component mounted later shows as it stands', async () => {
    const own = watch();
    const other = watch();
    void own.now().load('/mine');
    await shows(own, 'loading');
    expect(other.now().state).toBe('idle');
    // useFetchers lists every fetcher under way, whoever shows it.
    expect(other.inFlight()).toHaveLength(1);

    const first = watch('shared');
    void first.now().load('/shared');
    const request = await lastAsked(2);
    await shows(first, 'loading');
    const later = watch('shared');
    expect(later.now().state).toBe('loading');
    request.answer({ status: 200, value: { data: 'both' }, json: false });
    await vi.waitFor(() => expect(later.now().data).toBe('both'));
    expect(first.now().data).toBe('both');
  });

  test("a fetcher's data stays while a component shows it, and goes with the last one, even one that left while it ran", async () => {
    const first = watch('kept');
    const second = watch('kept');
    void first.now().load('/kept');
    (await lastAsked(1)).answer({ status: 200, value: { data: 'still here' }, json: false });
    await vi.waitFor(() => expect(first.now().data).toBe('still here'));
    first.root.unmount();
    expect(watch('kept').now().data).toBe('still here');
    second.root.unmount();
    roots.at(-1)?.unmount();
    expect(watch('kept').now().data).toBeUndefined();

    const leaving = watch('left');
    void leaving.now().load('/left');
    const request = await lastAsked(2);
    await shows(leaving, 'loading');
    leaving.root.unmount();
    // Mounted again while it runs: the same fetcher, still loading.
    const back = watch('left');
    expect(back.now().state).toBe('loading');
    back.root.unmount();
    request.answer({ status: 200, value: { data: 'nobody saw' }, json: false });
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    await rendered();
    expect(watch('left').now().data).toBeUndefined();
  });

  test("a hook given another key shows that key's fetcher, and its requests go there", async () => {
    const root = headlessRoot();
    roots.push(root);
    let shown: Fetcher<unknown> | undefined;
    const onRender = (fetcher: Fetcher<unknown>) => {
      shown = fetcher;
    };
    root.render(<Watch fetcherKey="before" onRender={onRender} />);
    root.render(<Watch fetcherKey="after" onRender={onRender} />);
    void shown?.load('/after');
    (await lastAsked(1)).answer({ status: 200, value: { data: 'for after' }, json: false });
    await vi.waitFor(() => expect(shown?.data).toBe('for after'));
    expect(watch('before').now().data).toBeUndefined();
  });

  test('on the server, a fetcher is idle and useFetchers lists none', () => {
    expect(renderToString(<Shown />)).toBe('<p>idle 0</p>');
  });

  test("a fetcher's Form is a post form carrying the page's form token first, then its own attributes and children", () => {
    const html = renderToString(
      <FormTokenContext value="page-token">
        <TokenForm />
      </FormTokenContext>,
    );
    expect(html).toBe(`<form id="add" action="/guests" method="post"><input type="hidden" name="${FORM_TOKEN_FIELD}" value="page-token"/><input name="name"/></form>`);
    // Without a token (a page that has none), no hidden field.
    expect(renderToString(<TokenForm />)).toBe('<form id="add" action="/guests" method="post"><input name="name"/></form>');
  });
});
