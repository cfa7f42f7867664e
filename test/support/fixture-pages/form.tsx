import { invalid, redirect, type InvalidData } from '../../../shared/api/action-helpers.ts';
import { Form } from '../../../shared/api/form.tsx';
import { useNavigationState } from '../../../shared/api/navigation.ts';
import type { ActionContext, PageProps } from '../../../shared/api/route-definition.ts';

export interface SignupErrors {
  readonly name?: string;
  readonly email?: string;
}

export interface SignupValues {
  readonly name: string;
  readonly email: string;
}

/** Where a valid submission lands (form-done.tsx). */
export const DONE_PATH = '/fixtures/form/done';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

function field(body: Readonly<Record<string, unknown>>, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * A sign-up form: both fields required, the email must look like one. A submission that does not
 * hold is shown again with 422, its errors beside the fields and the values kept; a valid one
 * redirects (303) to DONE_PATH with the name in the query.
 */
export async function action({ body }: ActionContext) {
  const values: SignupValues = { name: field(body, 'name'), email: field(body, 'email') };
  const errors: { name?: string; email?: string } = {};
  if (values.name === '') errors.name = 'Enter your name.';
  if (!EMAIL.test(values.email)) errors.email = 'Enter an email address such as ada@example.com.';
  if (errors.name !== undefined || errors.email !== undefined) return invalid<SignupErrors, SignupValues>(errors, values);
  // A slow save, so that a test can see the pending state.
  if (values.name === 'Slow Ada') await new Promise((resolve) => setTimeout(resolve, 800));
  redirect(`${DONE_PATH}?name=${encodeURIComponent(values.name)}`);
}

function isFailure(value: unknown): value is InvalidData<SignupErrors, SignupValues> {
  return typeof value === 'object' && value !== null && 'errors' in value;
}

/** The fixture of the form tests: `<Form method="post">` with its token, field errors after a 422. */
export default function FormPage({ actionData }: PageProps) {
  const { state } = useNavigationState();
  const failed = isFailure(actionData) ? actionData : undefined;
  const errors = failed?.errors ?? {};
  return (
    <main>
      <h1 id="form-heading">Sign up</h1>
      {failed === undefined ? null : (
        <p id="form-errors" role="alert">
          The form has errors: correct them and send it again.
        </p>
      )}
      <Form method="post" id="signup" aria-labelledby="form-heading" noValidate>
        <p>
          <label htmlFor="name">Name</label>
          <input
            id="name"
            name="name"
            autoComplete="name"
            defaultValue={failed?.values?.name ?? ''}
            aria-invalid={errors.name === undefined ? undefined : true}
            aria-describedby={errors.name === undefined ? undefined : 'name-error'}
          />
          {errors.name === undefined ? null : <span id="name-error">{errors.name}</span>}
        </p>
        <p>
          <label htmlFor="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="email"
            defaultValue={failed?.values?.email ?? ''}
            aria-invalid={errors.email === undefined ? undefined : true}
            aria-describedby={errors.email === undefined ? undefined : 'email-error'}
          />
          {errors.email === undefined ? null : <span id="email-error">{errors.email}</span>}
        </p>
        <button type="submit" id="submit" disabled={state === 'submitting'}>
          {state === 'submitting' ? 'Saving…' : 'Sign up'}
        </button>
      </Form>
    </main>
  );
}
