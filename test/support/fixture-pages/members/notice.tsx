import type { PageHead } from '../../../../shared/api/head.ts';
import { data } from '../../../../shared/api/answers.ts';
import type { PageProps } from '../../../../shared/api/route-definition.ts';

export const head: PageHead = { title: 'Notice' };

export interface NoticeData {
  readonly servedAt: string;
}

/** The same for every visitor, and said so: any cache may keep it a minute. */
export function load() {
  return data<NoticeData>({ servedAt: new Date().toISOString() }, { headers: { 'Cache-Control': 'public, max-age=60' } });
}

/** A page any visitor may be shown, inside the board's layout: back and forward may show it from the browser's memory. */
export default function Notice({ data: { servedAt } }: PageProps<NoticeData>) {
  return (
    <main>
      <h1>Notice</h1>
      <p id="notice-served-at">{servedAt}</p>
    </main>
  );
}
