/**
 * The words of the statuses a page's own helpers end in (`unauthorized()`, `forbidden()`,
 * `notFound()`, `serviceUnavailable()`), as docs/status-pages.md words them: all the browser's
 * first load carries, since a page shows no other status without the server's answer, which
 * brings its own words. The server's table (status-messages.ts) has the same words for these.
 */
export const PAGE_STATUS_MESSAGES: Readonly<Partial<Record<number, string>>> = {
  401: "You're not authorized to access this page.",
  403: 'This page could not be accessed.',
  404: 'This page could not be found.',
  503: 'Service Unavailable.',
};

/** What a status without words of its own says. */
export const NEUTRAL_STATUS_MESSAGE = 'The request could not be completed.';

/** The visitor-facing message of a page's status; any other gets the neutral sentence. */
export function pageStatusMessage(status: number): string {
  return PAGE_STATUS_MESSAGES[status] ?? NEUTRAL_STATUS_MESSAGE;
}
