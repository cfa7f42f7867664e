import type { LoadContext, PageProps } from '../../../shared/api/route-definition.ts';

export interface FormDoneData {
  readonly name: string;
}

export function load({ searchParams }: LoadContext): FormDoneData {
  return { name: searchParams.get('name') ?? '' };
}

/** Where the form fixture (form.tsx) redirects a valid submission. */
export default function FormDonePage({ data }: PageProps<FormDoneData>) {
  return (
    <main>
      <h1 id="done">Signed up</h1>
      <p id="done-name">{`Welcome, ${data.name}.`}</p>
    </main>
  );
}
