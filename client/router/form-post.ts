/**
 * Whether a form's submission is posted in place: not when the browser should send it itself,
 * to another window, as a search (GET) or with a file. Whether the action's address stays in
 * the page is the router's to say.
 */
export function postsInPlace(form: HTMLFormElement, submitter: HTMLElement | null): boolean {
  const enctype = submitter?.getAttribute('formenctype') ?? form.enctype;
  // The button's own, else the form's: both read lowercase, and empty when not set.
  const button = submitter as HTMLButtonElement | null;
  const target = button?.formTarget || form.target;
  return enctype === 'application/x-www-form-urlencoded' && (button?.formMethod || form.method) === 'post' && (target === '' || target === '_self');
}
