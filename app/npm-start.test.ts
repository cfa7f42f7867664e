import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from 'vitest';

/** `npm start` (scripts/start.ts) runs the build `npm run build` made (npm test builds before the tests run). */
const START_SCRIPT = join(import.meta.dirname, '..', 'scripts', 'start.ts');

test('npm start serves the app with no secret set, its own SESSION_SECRET included, and says once that they are made for this run', async () => {
  const { CSRF_SECRET: _csrf, SESSION_SECRET: _session, MAKE_MISSING_SECRETS: _make, ...env } = process.env;
  const child = spawn(process.execPath, [START_SCRIPT], {
    env: { ...env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', SHUTDOWN_DELAY_MS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening" line within 10 s; stderr: ${stderr}`)), 10_000);
      void exited.then((code) => reject(new Error(`exited with ${code} before listening; stderr: ${stderr}`)));
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const line = stdout.split('\n').find((text) => text.includes('"msg":"listening"'));
        if (line === undefined) return;
        clearTimeout(timer);
        resolve((JSON.parse(line) as { readonly port: number }).port);
      });
    });
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    // Signing in writes the session cookie: the session secret made for this run signs it.
    const signIn = await fetch(`http://127.0.0.1:${port}/sign-in`);
    expect(signIn.status).toBe(200);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^npm start: .*CSRF_SECRET.*SESSION_SECRET.*made for this run/)]);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
});
