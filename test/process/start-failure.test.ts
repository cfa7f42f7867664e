import { spawnSync } from 'node:child_process';
import { afterAll, expect, test } from 'vitest';
import { startServerProcess, type ServerProcess } from '../support/proxy-harness.ts';
import { PROXY_SERVER_ENTRY } from '../support/proxy-global-setup.ts';

let first: ServerProcess | undefined;
afterAll(async () => {
  await first?.stop();
});

test('a port already in use stops the process with exit 1 and one fatal log line naming it', async () => {
  first = await startServerProcess();
  const second = spawnSync(process.execPath, [PROXY_SERVER_ENTRY], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(first.port), HOST: '127.0.0.1' },
    encoding: 'utf8',
    timeout: 10_000,
  });
  expect(second.status).toBe(1);
  const lines = second.stdout.trim().split('\n').map((line): unknown => JSON.parse(line));
  expect(lines).toContainEqual(expect.objectContaining({ level: 60, msg: 'cannot listen', port: first.port, err: expect.objectContaining({ code: 'EADDRINUSE' }) }));
  expect(second.stderr).toBe('');
});
