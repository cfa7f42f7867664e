import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { START_EXIT } from '../../server/start-server.ts';

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
