import type { PageProps } from '../../../../shared/api/route-definition.ts';
// @ts-expect-error: a suffix TypeScript does not resolve, which esbuild drops to find the file.
import { readEntries } from '../lib/guestbook.server.ts?version=1';

/** An import whose text ends in a query, not in `.server.ts`: it reaches the same file. */
export default function ServerQueryImportPage(_props: PageProps) {
  return <p>{(readEntries as () => string[])().length}</p>;
}
