import type { PageHead } from '../../../../shared/api/head.ts';
import type { PageProps } from '../../../../shared/api/route-definition.ts';
import { isRouteErrorResponse } from '../../../../shared/api/route-errors.tsx';
import { errorTitleOf } from '../lib/error-titles.ts';
import { titleOf } from '../lib/titles.ts';

export function head(data: { readonly name: string }): PageHead {
  return { title: titleOf(data.name) };
}

export function errorHead(error: unknown): PageHead {
  return { title: errorTitleOf(isRouteErrorResponse(error) ? error.status : 500) };
}

export function load() {
  return { name: 'guestbook' };
}

export default function TitledPage(_props: PageProps) {
  return <p>TITLED-PAGE-MARKER</p>;
}
