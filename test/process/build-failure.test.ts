import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';

const run = promisify(execFile);
const FIXTURES = join(import.meta.dirname, '..', 'support', 'client-build-fixtures');
const BUILD = join(import.meta.dirname, '..', 'support', 'build-route-table.ts');

/** What a build of the table says on stderr, and its exit code, as `npm run build` would end. */
async function buildOf(table: string): Promise<{ readonly code: number; readonly stderr: string }> {
  try {
    await run(process.execPath, [BUILD, join(FIXTURES, table)]);
    return { code: 0, stderr: '' };
  } catch (error) {
    const { code, stderr } = error as { code: number; stderr: string };
    return { code, stderr };
  }
}

describe('a build that fails on the app code says so in one message, with exit code 1', () => {
  test('a page esbuild cannot build: the route, the file, the line and what to write, without a stack', async () => {
    const { code, stderr } = await buildOf('react-router-names-table.ts');
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^build failed: The client build failed for route \/react-router-names:\n.*client-build-fixtures\/pages\/react-router-names\.tsx:8: exports `loader`, which this framework does not read: its server data comes from `load`\n$/,
    );
  });

  test('a route table the build cannot read: the file, the line and the Express 5 form, without a stack', async () => {
    const { code, stderr } = await buildOf('express-4-path-table.ts');
    expect(code).toBe(1);
    expect(stderr).toMatch(/^build failed: .*client-build-fixtures\/express-4-path-table\.ts:5: Route \/tabs\/:tab\?: not an Express 5 path .*\{\/:name\}\n$/);
  });
});
