/**
 * Every status the service answers with a page, with the exact wording of
 * docs/status-pages.md: the statuses a page can end in, then the platform's own answers with
 * their standard reason phrases. The server's (status pages, JSON answers), and the navigation
 * runtime's where an answer brings no words of its own; the first load carries only the
 * statuses of a page's helpers (page-status-messages.ts, the same words: a test holds them
 * equal, since the runtime's chunk may import neither from the other). The app words its own
 * status pages (docs/status-pages.md).
 */
export const STATUS_MESSAGES = {
  400: 'Bad Request.',
  401: "You're not authorized to access this page.",
  403: 'This page could not be accessed.',
  404: 'This page could not be found.',
  405: 'Method Not Allowed.',
  408: 'Request Timeout.',
  413: 'Payload Too Large.',
  414: 'URI Too Long.',
  415: 'Unsupported Media Type.',
  422: 'Unprocessable Entity.',
  429: 'Too Many Requests.',
  431: 'Request Header Fields Too Large.',
  500: 'Internal Server Error.',
  503: 'Service Unavailable.',
} as const;

export type KnownStatus = keyof typeof STATUS_MESSAGES;

export function isKnownStatus(status: number): status is KnownStatus {
  return Object.hasOwn(STATUS_MESSAGES, status);
}

/** The visitor-facing message for a status; unknown statuses get a neutral sentence. */
export function statusMessage(status: number): string {
  return isKnownStatus(status) ? STATUS_MESSAGES[status] : 'The request could not be completed.';
}
