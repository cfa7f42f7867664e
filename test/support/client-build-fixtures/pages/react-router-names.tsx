import type { PageProps } from '../../../../shared/api/route-definition.ts';

/** React Router's names, which this framework does not read: the build must refuse the page. */
export default function ReactRouterNamesPage(_props: PageProps) {
  return <p>NAMES</p>;
}

export async function loader() {
  return { greeting: 'hello' };
}
