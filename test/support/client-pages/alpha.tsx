import type { PageProps } from '../../../shared/api/route-definition.ts';
import { serverOnlySecret } from './server-only.ts';

/** Runs on the server only: the client bundle must not carry it, nor what it imports. */
export function load(): { readonly secret: string } {
  return { secret: serverOnlySecret() };
}

export const head = { title: 'Alpha' };

export default function AlphaPage(_props: PageProps) {
  return <p>ALPHA-ONLY-MARKER</p>;
}
