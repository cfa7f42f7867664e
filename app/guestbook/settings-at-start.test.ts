import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { START_EXIT } from 'react-stream-shell/server';

/** The production entry as `npm run build` writes it (npm test builds before the tests run). */
const MAIN_ENTRY = join(import.meta.dirname, '..', '..', 'dist', 'server', 'main.js');

/** Starts the built server with `env` and waits for it to exit, which a bad setting makes it do at once. */
function start(env: Readonly<Record<string, string>>) {
  return spawnSync(process.execPath, [MAIN_ENTRY], {
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', CSRF_SECRET: 'c'.repeat(40), ...env },
    encoding: 'utf8',
    timeout: 10_000,
  });
}

describe("the guest book's settings at start", () => {
  test.each([
    ['unset', '', 'Invalid SESSION_SECRET=""'],
    ['too short', 'short', 'Invalid SESSION_SECRET="<5 characters, not shown>"'],
  ])('production with SESSION_SECRET %s: exit 78 and one line naming it, the value never shown, nothing started', (_case, value, line) => {
    const result = start({ SESSION_SECRET: value });
    expect(result.status).toBe(START_EXIT.badConfig);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(line);
    if (value !== '') expect(result.stderr).not.toContain(value);
    expect(result.stdout).toBe('');
  });
});

describe('GUESTBOOK_FILE at start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'guestbook-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test.each([
    ['not JSON', '{not json', 'this one is not JSON'],
    ['not a list', '{"entries":[]}', 'this one is not a JSON list of entries'],
    [
      'a list with a bad entry',
      '[{"id":"1","name":"Ada","message":"hi","createdAt":"2026-01-01T00:00:00.000Z"},{"id":"2","name":"Grace","message":"hi","createdAt":"yesterday"}]',
      'has an entry (number 2) without',
    ],
    ['a folder', null, 'this one cannot be read (EISDIR)'],
  ])('%s: exit 78 and one line naming it, before anything listens', (what, text, reason) => {
    const file = text === null ? dir : join(dir, `${what.replaceAll(' ', '-')}.json`);
    if (text !== null) writeFileSync(file, text);
    const result = start({ SESSION_SECRET: 's'.repeat(40), GUESTBOOK_FILE: file });
    expect(result.status).toBe(START_EXIT.badConfig);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Invalid GUESTBOOK_FILE=${JSON.stringify(file)}: expected a JSON file of guest book entries`);
    expect(lines[0]).toContain(reason);
    // Nothing was logged: the server never said it was listening.
    expect(result.stdout).toBe('');
  });
});
