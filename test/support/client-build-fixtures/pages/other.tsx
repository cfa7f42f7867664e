import type { PageProps } from '../../../../shared/api/route-definition.ts';

export default function OtherPage(_props: PageProps) {
  return <p>OTHER-PAGE-MARKER</p>;
}
