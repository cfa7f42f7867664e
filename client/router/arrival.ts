/** How a view shown is arrived at, once React has it on the screen. */
export interface Arrival {
  readonly scroll?: readonly [number, number] | undefined;
  /** The `#fragment` to scroll to, if any. */
  readonly hash?: string;
  readonly announce: boolean;
  /** A revalidation: the page keeps its scroll and focus, and this hears that it is on the screen. */
  readonly shown?: (() => void) | undefined;
}

/**
 * The id a `#fragment` names: percent-decoded, or as written when it is no valid
 * percent-encoding (`#%E0%A4%A`), where decoding throws and would take the page down with it.
 */
function fragmentId(hash: string): string {
  const written = hash.slice(1);
  try {
    return decodeURIComponent(written);
  } catch {
    return written;
  }
}

/** After React has shown a new view (not a revalidation's): scroll, focus the main heading, announce the title (with `announce`, announcer.ts). */
export function arrive(done: Arrival, announce: (text: string) => void): void {
  // A form answered with field errors: its first invalid field takes the focus and comes into
  // view, as the browser's own validation would do, rather than the page's heading at the top.
  document.querySelector<HTMLElement>('#root [aria-invalid=true]')?.focus();
  // A field the visitor is typing in (that one, or one in a layout that stayed: a search box that
  // navigates as they type) keeps the focus and the scroll; otherwise both go to the new page.
  const typing = document.activeElement?.matches('#root input,#root textarea,#root select') === true;
  const target = done.hash ? document.getElementById(fragmentId(done.hash)) : null;
  if (done.scroll !== undefined) scrollTo(...done.scroll);
  else if (target !== null) target.scrollIntoView();
  else if (!typing) scrollTo(0, 0);
  const heading = typing ? null : (document.querySelector<HTMLElement>('#root main h1') ?? document.querySelector<HTMLElement>('#root h1'));
  if (heading !== null) {
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  }
  if (done.announce) announce(document.title);
}
