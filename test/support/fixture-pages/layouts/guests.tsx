import { invalid, redirect } from '../../../../shared/api/action-helpers.ts';
import { useFetcher, useFetchers } from '../../../../shared/api/fetcher.tsx';
import type { PageHead } from '../../../../shared/api/head.ts';
import { Suspense, use, useEffect } from 'react';
import type { ActionContext, LoadContext } from '../../../../shared/api/route-definition.ts';
import { isRouteErrorResponse } from '../../../../shared/api/route-errors.tsx';
import { useActionData, useLoaderData } from '../../../../shared/api/route-hooks.tsx';
import type { load as pageTwoLoad } from './two.tsx';

export const head: PageHead = { title: 'Guests' };

/** The guest list of this server process: the action adds to it, the load reads it. */
const names: string[] = [];

interface GuestsData {
  readonly names: readonly string[];
  readonly loadedAt: Date;
  /** With `?starter`: a value that settles 600 ms after the load, so its boundary hydrates well after the shell. */
  readonly later?: Promise<string> | undefined;
}

/** With `?slow`, the load takes 2 s (what the starter's fetcher loads). */
export async function load({ searchParams }: LoadContext): Promise<GuestsData> {
  if (searchParams.has('slow')) await new Promise((resolve) => setTimeout(resolve, 2_000));
  const later = searchParams.has('starter') ? new Promise<string>((resolve) => setTimeout(() => resolve('LATER'), 600)) : undefined;
  return { names: [...names], loadedAt: new Date(), later };
}

/**
 * Adds a guest, slowly enough for a test to see the fetcher submitting; an empty name is
 * answered 422 with the error; `intent=visit` redirects to page one.
 */
export async function action({ body }: ActionContext) {
  if (body.intent === 'visit') redirect('/layouts/one');
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (name === '') return invalid({ name: 'Enter a name.' }, { name });
  await new Promise((resolve) => setTimeout(resolve, 300));
  names.push(name);
  return { added: name, at: new Date() };
}

/** One fetcher and its form: its state, the guest being added (optimistic UI), the guest it added (with the time, a Date), its field's error, a refusal's status. */
function GuestForm({ which, fetcherKey, intent }: { readonly which: string; readonly fetcherKey?: string; readonly intent?: string }) {
  const fetcher = useFetcher<typeof action>(fetcherKey === undefined ? undefined : { key: fetcherKey });
  const posted = useActionData<typeof action>();
  const result = fetcher.data ?? posted;
  const failed = result !== undefined && 'errors' in result ? result : undefined;
  const added = result !== undefined && 'added' in result ? result : undefined;
  return (
    <fetcher.Form id={`form-${which}`} aria-label={`Add guest ${which}`}>
      {intent === undefined ? null : <input type="hidden" name="intent" value={intent} />}
      <label htmlFor={`name-${which}`}>Name {which}</label> <input id={`name-${which}`} name="name" />{' '}
      <button type="submit" id={`add-${which}`}>
        Add
      </button>{' '}
      <button type="button" id={`reset-${which}`} onClick={() => fetcher.reset()}>
        Reset {which}
      </button>{' '}
      <output id={`state-${which}`}>{fetcher.state}</output>
      {fetcher.formData === undefined ? null : (
        <p id={`pending-${which}`}>
          {[...fetcher.formData.keys()].join(',')}: {String(fetcher.formData.get('name'))} to {fetcher.formAction} by {fetcher.formMethod}
        </p>
      )}
      {failed === undefined ? null : <p id={`error-${which}`}>{failed.errors.name}</p>}
      {added === undefined ? null : (
        <p id={`added-${which}`}>
          {added.added} at {added.at instanceof Date ? 'a date' : 'no date'}
        </p>
      )}
      {fetcher.error === undefined ? null : <p id={`refused-${which}`}>{isRouteErrorResponse(fetcher.error) ? fetcher.error.status : 'failed'}</p>}
    </fetcher.Form>
  );
}

/**
 * `fetcher.submit()` called from code, not a form: once, and twice in a row, so that the second
 * request aborts the first (test/browser/fetcher-submit.test.ts). Its own fetcher, not a form's.
 */
function CodeSubmitter() {
  const fetcher = useFetcher<typeof action>();
  const added = fetcher.data !== undefined && 'added' in fetcher.data ? fetcher.data.added : '';
  return (
    <p>
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
      <output id="submitter-state">{fetcher.state}</output> <output id="submitter-took">{added}</output>
    </p>
  );
}

/** Another component on the key of form b's fetcher: it sees the same fetcher. */
function SharedState() {
  const fetcher = useFetcher<typeof action>({ key: 'guest-b' });
  const added = fetcher.data !== undefined && 'added' in fetcher.data ? fetcher.data.added : '';
  return (
    <p>
      Form b, seen from afar: <output id="shared-state">{fetcher.state}</output> <output id="shared-added">{added}</output>
    </p>
  );
}

/** The guests being added by any fetcher on the page (`useFetchers()`), shown where the forms are not. */
function PendingGuests() {
  const fetchers = useFetchers();
  const names = fetchers.filter((fetcher) => fetcher.formAction === '/layouts/guests').map((fetcher) => String(fetcher.formData?.get('name')));
  return (
    <p>
      In flight: <output id="in-flight">{fetchers.length}</output> <output id="pending-guests">{names.join(', ')}</output>
    </p>
  );
}

/** Starts a keyed fetcher as soon as the shell has hydrated (an effect on mount), which runs for 2 s. */
function Starter() {
  const { state, load: start } = useFetcher({ key: 'starter' });
  useEffect(() => {
    void start('/layouts/guests?slow');
  }, [start]);
  return <output id="starter-state">{state}</output>;
}

/** Inside the late boundary: the fetchers under way, read while that boundary hydrates. */
function Later({ value }: { readonly value: Promise<string> }) {
  const text = use(value);
  const busy = useFetchers();
  const shared = useFetcher({ key: 'starter' });
  return (
    <p id="later">
      {text}: <output id="later-in-flight">{busy.length}</output> <output id="later-shared-state">{shared.state}</output>
    </p>
  );
}

/** Reads another page's data with `fetcher.load`, without going there. */
function Peek() {
  const fetcher = useFetcher<typeof pageTwoLoad>();
  return (
    <p>
      <button type="button" id="peek" onClick={() => void fetcher.load('/layouts/two')}>
        Peek at page two
      </button>{' '}
      <output id="peek-state">{fetcher.state}</output> <output id="peeked">{fetcher.data?.page}</output>
    </p>
  );
}

/** A fetcher form whose action redirects: the runtime goes there. */
function Visit() {
  const fetcher = useFetcher<typeof action>();
  return (
    <fetcher.Form id="visit" aria-label="Visit page one">
      <input type="hidden" name="intent" value="visit" />
      <button type="submit" id="visit-button">
        Visit page one
      </button>
    </fetcher.Form>
  );
}

/** The fetcher fixture (docs/building-an-app.md#fetchers): a list the fetchers add to, inside the layout fixtures, tall enough to scroll. */
export default function Guests() {
  const { names: listed, loadedAt, later } = useLoaderData<typeof load>();
  return (
    <main>
      <h1>Guests</h1>
      {later === undefined ? null : (
        <>
          <Starter />
          <Suspense fallback={<p>Later…</p>}>
            <Later value={later} />
          </Suspense>
        </>
      )}
      <p id="loaded-at">{loadedAt.toISOString()}</p>
      <ul id="guests">
        {listed.map((name, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: names may repeat, and the list only grows at its end
          <li key={index}>{name}</li>
        ))}
      </ul>
      {Array.from({ length: 12 }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of filler, never reordered
        <p key={index}>Filler paragraph {index + 1}, so that the page is taller than the window.</p>
      ))}
      <PendingGuests />
      <GuestForm which="a" />
      <GuestForm which="b" fetcherKey="guest-b" />
      <GuestForm which="c" intent="quiet" />
      <SharedState />
      <CodeSubmitter />
      <Peek />
      <Visit />
    </main>
  );
}
