import { Form, invalid, type InvalidData, Link, type PageHead, redirect, useNavigationState } from 'react-stream-shell';
import { LikeButton } from '../components/like-button.tsx';
import { TextField } from '../components/text-field.tsx';
import type { Entry } from '../guestbook/store.server.ts';
import { nameError } from '../visitor-name.ts';
import type { Route } from './+types/guestbook.ts';

/** The section layout's title and description (app/layouts/guestbook.tsx) are this page's. */
export const head: PageHead = {};

export async function load({ context }: Route.LoadContext) {
  return { entries: await context.guestbook.list() };
}

interface Fields {
  readonly name: string;
  readonly message: string;
}
type Errors = Partial<Record<keyof Fields, string>>;

const MAX_MESSAGE = 500;

function text(body: Readonly<Record<string, unknown>>, field: keyof Fields): string {
  const value = body[field];
  return typeof value === 'string' ? value.trim() : '';
}

/** Signs the book: 422 with the errors beside the fields, or 303 to the new entry's page. */
export async function action({ body, context }: Route.ActionContext) {
  const values: Fields = { name: text(body, 'name'), message: text(body, 'message') };
  const errors: Errors = {};
  const badName = nameError(values.name);
  if (badName !== undefined) errors.name = badName;
  if (values.message === '') errors.message = 'Write a message.';
  else if (values.message.length > MAX_MESSAGE) errors.message = `Keep it under ${MAX_MESSAGE} characters.`;
  if (errors.name !== undefined || errors.message !== undefined) return invalid<Errors, Fields>(errors, values);
  const entry = await context.guestbook.add(values);
  redirect(`/guestbook/${entry.id}`);
}

function EntryItem({ entry }: { readonly entry: Entry }) {
  return (
    <li>
      <Link href={`/guestbook/${entry.id}`}>{entry.name}</Link>: {entry.message} <LikeButton id={entry.id} name={entry.name} likes={entry.likes} />
    </li>
  );
}

function isFailure(value: unknown): value is InvalidData<Errors, Fields> {
  return typeof value === 'object' && value !== null && 'errors' in value;
}

export default function GuestbookPage({ data, actionData }: Route.PageProps) {
  const { state } = useNavigationState();
  const failed = isFailure(actionData) ? actionData : undefined;
  const errors = failed?.errors ?? {};
  return (
    <main className="app-main guestbook">
      <h1>Guest book</h1>
      {data.entries.length === 0 ? (
        <p>No entries yet: be the first.</p>
      ) : (
        <ul className="entries">
          {data.entries.map((entry) => (
            <EntryItem key={entry.id} entry={entry} />
          ))}
        </ul>
      )}
      <h2 id="sign-heading">Sign the book</h2>
      <Form method="post" aria-labelledby="sign-heading" noValidate>
        <TextField name="name" label="Name" autoComplete="name" value={failed?.values?.name} error={errors.name} />
        <TextField name="message" label="Message" multiline value={failed?.values?.message} error={errors.message} />
        <button type="submit" disabled={state === 'submitting'}>
          {state === 'submitting' ? 'Signing…' : 'Sign'}
        </button>
      </Form>
    </main>
  );
}
