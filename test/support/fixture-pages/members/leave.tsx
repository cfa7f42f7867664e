import { Form } from '../../../../shared/api/form.tsx';
import type { PageHead } from '../../../../shared/api/head.ts';
import type { LoadContext, PageProps } from '../../../../shared/api/route-definition.ts';
import { unauthorized } from '../../../../shared/api/status-helpers.ts';
import { memberSessions } from './member-session.ts';

export const head: PageHead = { title: 'Leave' };

export async function load({ request }: LoadContext): Promise<{ readonly name: string }> {
  const name = (await memberSessions.getSession(request.headers.get('cookie'))).get('name');
  if (name === undefined) unauthorized();
  return { name };
}

/** Forms that post to resource routes: a sign-out that redirects, and an export answered with JSON, in place and (reloadDocument) by the browser. */
export default function Leave({ data }: PageProps<{ readonly name: string }>) {
  return (
    <main>
      <h1>Leave</h1>
      <p id="leave-name">Signed in as {data.name}</p>
      <Form method="post" action="/members/sign-out" aria-label="Sign out">
        <button type="submit" id="leave-sign-out">
          Sign out
        </button>
      </Form>
      <Form method="post" action="/members/export" aria-label="Export in place">
        <button type="submit" id="leave-export">
          Export
        </button>
      </Form>
      <Form method="post" action="/members/export" reloadDocument aria-label="Export">
        <button type="submit" id="leave-export-document">
          Export as a document
        </button>
      </Form>
    </main>
  );
}
