import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

/**
 * The floors `npm run mutation` holds (scripts/mutation-scores.ts, docs/testing.md#mutation-testing):
 * the total at thresholds.break (85%), each file at 70%, read from a Stryker report.
 */

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'mutation-scores.ts');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mutation-scores-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A report whose files have `killed` killed and `survived` survived mutants each (and one the type checker rejected, which does not count). */
async function scores(
  files: Record<string, { readonly killed: number; readonly survived: number }>,
  ...flags: string[]
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const report = {
    files: Object.fromEntries(
      Object.entries(files).map(([file, { killed, survived }]) => [
        file,
        { mutants: [...Array(killed).fill({ status: 'Killed' }), ...Array(survived).fill({ status: 'Survived' }), { status: 'CompileError' }] },
      ]),
    ),
  };
  const file = join(dir, `${Object.keys(files).join('-').replaceAll('/', '_')}.json`);
  await writeFile(file, JSON.stringify(report));
  const child = spawnSync(process.execPath, [SCRIPT, file, ...flags], { encoding: 'utf8', timeout: 20_000 });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe('the mutation floors', () => {
  test('pass a total of 85% whose files are each at 70% or more, printing each and the total', async () => {
    const run = await scores({ 'a.ts': { killed: 7, survived: 3 }, 'b.ts': { killed: 78, survived: 12 } });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(' 70.00%     7 of 10   a.ts');
    expect(run.stdout).toContain(' 85.00%    85 of 100  total');
  });

  test('fail a file under 70%, though the total holds', async () => {
    const run = await scores({ 'c.ts': { killed: 69, survived: 31 }, 'd.ts': { killed: 1000, survived: 0 } });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('c.ts  (under the 70% floor of each file)');
  });

  test('fail a total under 85%, though every file holds', async () => {
    const run = await scores({ 'e.ts': { killed: 84, survived: 16 } });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('total  (under the 85% floor of the total, thresholds.break)');
  });

  test('print the table of docs/testing.md with --markdown, each status counted, and hold the same floors', async () => {
    const run = await scores({ 'f.ts': { killed: 9, survived: 1 }, 'g.ts': { killed: 6, survived: 4 } }, '--markdown');
    expect(run.status).toBe(1);
    expect(run.stdout.split('\n').slice(0, 5)).toEqual([
      '| file | score | detected of counted | survived, not covered | rejected by the type checker | marked equivalent or static |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      '| `f.ts` | 90.00% | 9 of 10 | 1, 0 | 1 | 0 |',
      '| `g.ts` | 60.00% | 6 of 10 | 4, 0 | 1 | 0 |',
      '| total | 75.00% | 15 of 20 | 5, 0 | 2 | 0 |',
    ]);
    expect(run.stderr).toContain('g.ts  (under the 70% floor of each file)');
  });
});
