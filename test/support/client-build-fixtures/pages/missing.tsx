import type { LoadContext, PageProps } from '../../../../shared/api/route-definition.ts';

/** A layout's not-found page: its load runs on the server only and never ships. */
export function load({ params }: LoadContext) {
  return { path: params.path ?? '', secret: 'MISSING-LOAD-MARKER' };
}

export default function MissingPage(_props: PageProps) {
  return <p>MISSING-PAGE-MARKER</p>;
}
