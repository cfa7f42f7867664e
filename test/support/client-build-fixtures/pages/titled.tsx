import type { PageHead } from '../../../../shared/head.ts';
import type { PageProps } from '../../../../shared/route-definition.ts';
import { titleOf } from '../lib/titles.ts';

export function head(data: { readonly name: string }): PageHead {
  return { title: titleOf(data.name) };
}

export function load() {
  return { name: 'guestbook' };
}

export default function TitledPage(_props: PageProps) {
  return <p>TITLED-PAGE-MARKER</p>;
}
