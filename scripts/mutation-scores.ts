import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Reads the report of `stryker run` (its `json` reporter, reports/mutation/mutation.json, or
 * the file named as the first argument), prints each mutated file's score and the total, and
 * fails unless the total is at least the `break` threshold of stryker.config.json and every
 * file at least FILE_FLOOR. Stryker's own `break`
 * holds the total only: a file far under it could hide behind the others.
 * The score is Stryker's: killed and timed-out mutants over those killed, timed out, survived
 * or not covered; mutants that did not compile or were disabled by a comment do not count.
 */

/**
 * The least score of any one file. Under the total's floor: a module whose every branch is a
 * browser's or a build's (the fetcher, the asset plugin) has survivors a unit test cannot reach
 * at a fair price, while the total still holds the suite to `break`. stryker.config.json has no
 * setting for it.
 */
const FILE_FLOOR = 70;

interface Mutant {
  readonly status: string;
}

interface Report {
  readonly files: Readonly<Record<string, { readonly mutants: readonly Mutant[] }>>;
}

const ROOT = join(import.meta.dirname, '..');
const config: unknown = JSON.parse(readFileSync(join(ROOT, 'stryker.config.json'), 'utf8'));
const thresholds: unknown = typeof config === 'object' && config !== null ? Reflect.get(config, 'thresholds') : undefined;
const totalFloor: unknown = typeof thresholds === 'object' && thresholds !== null ? Reflect.get(thresholds, 'break') : undefined;
if (typeof totalFloor !== 'number') throw new Error('stryker.config.json has no thresholds.break');

function isReport(value: unknown): value is Report {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'files') === 'object';
}

// The report named on the command line (runs put together), else the last run's.
const reportFile = process.argv[2] ?? join(ROOT, 'reports', 'mutation', 'mutation.json');
const report: unknown = JSON.parse(readFileSync(reportFile, 'utf8'));
if (!isReport(report)) throw new Error(`${reportFile} is not a mutation report`);

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

function scoreLine(detected: number, total: number, name: string): { readonly score: number; readonly line: string } {
  const score = total === 0 ? 100 : (100 * detected) / total;
  return { score, line: `${score.toFixed(2).padStart(6)}%  ${String(detected).padStart(4)} of ${String(total).padEnd(4)} ${name}` };
}

const failing: string[] = [];
let allDetected = 0;
let allCounted = 0;
for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  const detected = mutants.filter((mutant) => DETECTED.has(mutant.status)).length;
  const counted = detected + mutants.filter((mutant) => UNDETECTED.has(mutant.status)).length;
  allDetected += detected;
  allCounted += counted;
  const { score, line } = scoreLine(detected, counted, file);
  process.stdout.write(`${line}\n`);
  if (score < FILE_FLOOR) failing.push(`${line}  (under the ${FILE_FLOOR}% floor of each file)`);
}
const total = scoreLine(allDetected, allCounted, 'total');
process.stdout.write(`${total.line}\n`);
if (total.score < totalFloor) failing.push(`${total.line}  (under the ${totalFloor}% floor of the total, thresholds.break)`);
if (failing.length > 0) {
  process.stderr.write(`Under a floor:\n${failing.join('\n')}\n`);
  process.exitCode = 1;
}
