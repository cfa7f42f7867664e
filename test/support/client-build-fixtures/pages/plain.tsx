import type { PageProps } from '../../../../shared/api/route-definition.ts';

/** A path a table could compute instead of writing it out, which the build refuses. */
export const PLAIN_PATH = '/computed';

export default function PlainPage(_props: PageProps) {
  return <p>PLAIN-PAGE-MARKER</p>;
}
