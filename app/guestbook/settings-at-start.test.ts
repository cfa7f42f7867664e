import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
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

describe('the database at start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'guestbook-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const secrets = { SESSION_SECRET: 's'.repeat(40) };

  test.each([
    ['a folder', null, 'this one: '],
    ['not a database', 'plain text, not SQLite', 'file is not a database'],
  ])('GUESTBOOK_DATABASE %s: exit 78 and one line naming it, before anything listens', (what, text, reason) => {
    const file = text === null ? dir : join(dir, `${what.replaceAll(' ', '-')}.sqlite`);
    if (text !== null) writeFileSync(file, text);
    const result = start({ ...secrets, GUESTBOOK_DATABASE: file });
    expect(result.status).toBe(START_EXIT.badConfig);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`Invalid GUESTBOOK_DATABASE=${JSON.stringify(file)}: expected a SQLite database file, or a path where one can be made`);
    expect(lines[0]).toContain(reason);
    expect(result.stdout).toBe('');
  });

  test('a migration that fails stops the start: exit 78, one fatal line naming the migration, nothing listening', () => {
    // A database whose table is in the way of the first migration.
    const file = join(dir, 'in-the-way.sqlite');
    const db = new DatabaseSync(file);
    db.exec('CREATE TABLE entries (id TEXT)');
    db.close();
    const result = start({ ...secrets, GUESTBOOK_DATABASE: file });
    expect(result.status).toBe(START_EXIT.badConfig);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ level: 60, exitCode: 78, msg: 'app onStart failed: migration 0001-entries failed: table entries already exists' });
    expect(result.stderr).toBe('');
  });

  test('DATABASE_URL that is no postgres URL: exit 78 and one line, the value never shown', () => {
    const result = start({ ...secrets, DATABASE_URL: 'mysql://user:hunter2@db/app' });
    expect(result.status).toBe(START_EXIT.badConfig);
    expect(result.stderr.trim()).toBe('Invalid DATABASE_URL="<not shown>": expected a postgres:// or postgresql:// URL');
    expect(result.stderr).not.toContain('hunter2');
  });
});
