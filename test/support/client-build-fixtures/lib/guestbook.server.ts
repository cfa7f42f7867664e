import { appendFileSync, readFileSync } from 'node:fs';

/** Stands for server-only code (a database, a secret): no byte of it may reach the browser. */
export const SERVER_MODULE_MARKER = 'GUESTBOOK-SERVER-MODULE-MARKER';

const FILE = `/tmp/${SERVER_MODULE_MARKER}.txt`;

export function readEntries(): string[] {
  return readFileSync(FILE, 'utf8').split('\n');
}

export function saveEntry(text: string): void {
  appendFileSync(FILE, `${text}\n`);
}
