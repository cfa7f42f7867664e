import type { PageProps } from '../../../../shared/api/route-definition.ts';
import { entriesSummary } from '../lib/entries-summary.ts';

/** A component that reaches a server module through a helper: the build must refuse it too. */
export default function ServerViaHelperPage(_props: PageProps) {
  return <p>{entriesSummary()}</p>;
}
