import { redirect } from '../../../shared/api/action-helpers.ts';
import { Form } from '../../../shared/api/form.tsx';
import type { ActionContext } from '../../../shared/api/route-definition.ts';

/**
 * The pattern docs/security.md ("No open redirects") is about: a sign-in whose action sends the
 * visitor on to the page its `?next=` names, whatever a link to it put there.
 */
export function action({ searchParams }: ActionContext) {
  redirect(searchParams.get('next') ?? '/');
}

/** The fixture of the redirect tests: one button that posts to this page's own address, query included. */
export default function NextFormPage() {
  return (
    <main>
      <h1 id="next-heading">Sign in</h1>
      <Form method="post" id="sign-in" aria-labelledby="next-heading">
        <button type="submit" id="sign-in-submit">
          Sign in
        </button>
      </Form>
    </main>
  );
}
