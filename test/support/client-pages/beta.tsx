import type { PageProps } from '../../../shared/api/route-definition.ts';

export default function BetaPage(_props: PageProps) {
  return <p>BETA-ONLY-MARKER</p>;
}
