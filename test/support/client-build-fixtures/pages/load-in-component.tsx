import type { PageProps } from '../../../../shared/api/route-definition.ts';
import { readEntries } from '../lib/guestbook.server.ts';

export function load() {
  return { entries: readEntries() };
}

/** Calls load in the browser, where the build leaves it out: the build must refuse the page. */
export default function LoadInComponentPage(_props: PageProps) {
  return <p>{load().entries.length}</p>;
}
