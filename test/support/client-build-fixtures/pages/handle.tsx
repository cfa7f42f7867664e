import type { PageProps } from '../../../../shared/api/route-definition.ts';

/** React Router's `handle`, for useMatches(), which this framework does not have. */
export default function HandlePage(_props: PageProps) {
  return <p>HANDLE</p>;
}

export const handle = { breadcrumb: 'Handle' };
