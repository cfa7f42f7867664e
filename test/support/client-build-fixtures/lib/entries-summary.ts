import { readEntries } from './guestbook.server.ts';

/** A helper that reaches a server module: a component that imports it takes the server module along. */
export function entriesSummary(): string {
  return `${readEntries().length} entries`;
}
