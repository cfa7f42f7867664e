import type { PageProps } from '../../../shared/route-definition.ts';

export default function AlphaPage(_props: PageProps) {
  return <p>ALPHA-ONLY-MARKER</p>;
}
