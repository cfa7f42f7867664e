import type { PageProps } from '../../../../shared/api/route-definition.ts';
import { formatEntry } from '../lib/format-entry.ts';
import { readEntries } from '../lib/guestbook.server.ts';

export interface GuestbookData {
  readonly entries: readonly string[];
}

/** Reads the entries on the server: `load` and the server module it imports never ship. */
export function load(): GuestbookData {
  return { entries: readEntries().map(formatEntry) };
}

export default function GuestbookPage({ data }: PageProps<GuestbookData>) {
  return (
    <ul>
      <li>GUESTBOOK-PAGE-MARKER</li>
      {data.entries.map((entry) => (
        <li key={entry}>{formatEntry(entry)}</li>
      ))}
    </ul>
  );
}
