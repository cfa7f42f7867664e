import type { FormHTMLAttributes, ReactNode } from 'react';
import { currentNavigator, submitterOf, useFormToken } from './navigation.ts';
import { FORM_TOKEN_FIELD } from '../protocol/form-token-field.ts';

export interface FormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'method'> {
  /** `post` sends to the route's action; `get` is a plain search form. */
  readonly method?: 'get' | 'post';
  /** Always let the browser post it, after hydration too: for an answer that is no page (a file, JSON), which it shows or downloads itself. */
  readonly reloadDocument?: boolean;
  readonly children?: ReactNode;
}

/**
 * A form: a plain `<form>` that posts without JavaScript (the action answers 303 or shows the
 * page again with 422) and carries the request's form token for the cross-site check. After
 * hydration a post is sent with fetch and its answer shown in place, and
 * `useNavigationState()` says `submitting` meanwhile.
 */
export function Form({ method = 'post', reloadDocument, children, onSubmit, ...rest }: FormProps) {
  const token = useFormToken();
  return (
    <form
      {...rest}
      method={method}
      onSubmit={(event) => {
        onSubmit?.(event);
        if (event.defaultPrevented || method !== 'post' || reloadDocument) return;
        if (currentNavigator()?.submit(event.currentTarget, submitterOf(event)) === true) event.preventDefault();
      }}
    >
      {method === 'post' && token !== undefined ? <input type="hidden" name={FORM_TOKEN_FIELD} value={token} /> : null}
      {children}
    </form>
  );
}
