import type { ActionContext, PageProps } from '../../../../shared/api/route-definition.ts';
import { saveEntry } from '../lib/guestbook.server.ts';

/** Only the action uses it, so it goes with the action, and the server module with it. */
function persist(text: unknown): { readonly saved: boolean } {
  if (typeof text !== 'string' || text === '') return { saved: false };
  saveEntry(text);
  return { saved: true };
}

export const action = async ({ body }: ActionContext) => persist(body.text);

export default function SignPage(_props: PageProps) {
  return <p>SIGN-PAGE-MARKER</p>;
}
