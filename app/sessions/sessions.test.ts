import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createTestApp } from 'react-stream-shell/testing';
import app from '../app.ts';
import { openSqlite } from '../database/sqlite.ts';
import { sessionRowsContract } from './session-rows-contract.ts';
import { signOutContract } from './sign-out-contract.ts';

const dir = mkdtempSync(join(tmpdir(), 'sessions-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function freshFile(): string {
  files += 1;
  return join(dir, `db-${files}`, 'app.sqlite');
}

describe('the sessions table on SQLite', () => {
  sessionRowsContract(async () => openSqlite({ file: freshFile(), timeoutMs: 200 }));
});

describe("the app's sessions on SQLite, two instances sharing one file", () => {
  signOutContract(async () => ({ GUESTBOOK_DATABASE: freshFile() }));
});

describe('SESSION_STORE', () => {
  test('a value other than cookie or database stops the start, naming it', () => {
    expect(() => createTestApp(app, { env: { SESSION_STORE: 'redis' } })).toThrow('Invalid SESSION_STORE="redis"');
  });
});
