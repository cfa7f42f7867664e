import type { PageProps } from '../../../../shared/api/route-definition.ts';
import { readEntries } from '../lib/guestbook.server.ts';

/** Left out of the browser build: the lines below it must keep their numbers in its messages. */
export function load() {
  const entries = readEntries();
  return { count: entries.length };
}

export default function MissingModulePage(_props: PageProps) {
  // @ts-expect-error: the module does not exist; the build's message must point at this line.
  const later = () => import('./no-such-module.ts');
  return (
    <button type="button" onClick={later}>
      MISSING-MODULE-PAGE
    </button>
  );
}
