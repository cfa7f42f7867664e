import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Development's secrets, kept in a git-ignored file of the app's (`DEV_SECRETS_FILE`, which the
 * dev command sets to `.react-stream-shell/dev-secrets.json`): a secret left unset is made once
 * and then read back on every restart, so a save that restarts the server keeps the visitor's
 * session and form tokens. Read at start only, before anything listens; never in production
 * (config.ts refuses the setting there).
 */

/** The secrets the file holds, by setting name; anything else in it is left out. */
function keptSecrets(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    // A file the developer broke by hand: made again, which signs them out once.
    return {};
  }
}

/** The kept secret of `name`, at least `minLength` characters; made and written to `file` (mode 0600) the first time. */
export function keptDevSecret(file: string, name: string, minLength: number): string {
  const secrets = keptSecrets(file);
  const kept = secrets[name];
  if (kept !== undefined && kept.length >= minLength) return kept;
  const made = randomBytes(Math.max(32, minLength)).toString('base64url');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ ...secrets, [name]: made }, null, 2)}\n`, { mode: 0o600 });
  return made;
}
