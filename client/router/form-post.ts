import { actionOf, fieldsOf } from '../../shared/api/navigation.ts';

/**
 * What a form's submission posts in place, as `[action, fields]`: nothing when the browser
 * should send it itself, to another window, as a search (GET) or with a file. Whether the
 * action's address stays in the page is the router's to say.
 */
export function postOf(form: HTMLFormElement, submitter: HTMLElement | null): [URL, URLSearchParams] | undefined {
  const action = actionOf(form, submitter);
  const enctype = submitter?.getAttribute('formenctype') ?? form.enctype;
  // The button's own, else the form's: both read lowercase, and empty when not set.
  const button = submitter as HTMLButtonElement | null;
  const target = button?.formTarget || form.target;
  if (enctype !== 'application/x-www-form-urlencoded' || (button?.formMethod || form.method) !== 'post' || (target !== '' && target !== '_self')) return undefined;
  return [action, fieldsOf(new FormData(form, submitter))];
}
