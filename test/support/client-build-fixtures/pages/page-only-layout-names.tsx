import type { PageProps } from '../../../../shared/api/route-definition.ts';

/** A page that exports what only a layout reads: the build must refuse it. */
export default function PageWithShouldRevalidate(_props: PageProps) {
  return <p>REVALIDATES</p>;
}

export function shouldRevalidate() {
  return false;
}
