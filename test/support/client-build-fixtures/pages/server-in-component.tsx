import type { PageProps } from '../../../../shared/api/route-definition.ts';
import { readEntries } from '../lib/guestbook.server.ts';

/** A component that reads a server module itself: the build must refuse it. */
export default function ServerInComponentPage(_props: PageProps) {
  return <p>{readEntries().length}</p>;
}
