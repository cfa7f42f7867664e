import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Reads the report of `stryker run` (its `json` reporter, reports/mutation/mutation.json, or
 * the file named as an argument), prints each mutated file's score and the total (with
 * `--markdown`, as the table of docs/testing.md, counts of each status included), and
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

const args = process.argv.slice(2);
const markdown = args.includes('--markdown');
// The report named on the command line (runs put together), else the last run's.
const reportFile = args.find((arg) => !arg.startsWith('--')) ?? join(ROOT, 'reports', 'mutation', 'mutation.json');
const report: unknown = JSON.parse(readFileSync(reportFile, 'utf8'));
if (!isReport(report)) throw new Error(`${reportFile} is not a mutation report`);

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

function scoreLine(detected: number, total: number, name: string): { readonly score: number; readonly line: string } {
  const score = total === 0 ? 100 : (100 * detected) / total;
  return { score, line: `${score.toFixed(2).padStart(6)}%  ${String(detected).padStart(4)} of ${String(total).padEnd(4)} ${name}` };
}

/** How many of the mutants have each status. */
function countOf(mutants: readonly Mutant[]): (...statuses: string[]) => number {
  return (...statuses) => mutants.filter((mutant) => statuses.includes(mutant.status)).length;
}

/** A row of the table in docs/testing.md: score, detected of counted, survived and not covered, rejected by the type checker, marked equivalent or static (ignored). */
function markdownRow(name: string, score: number, mutants: readonly Mutant[]): string {
  const count = countOf(mutants);
  const detected = count(...DETECTED);
  const counted = detected + count(...UNDETECTED);
  return `| ${name} | ${score.toFixed(2)}% | ${detected} of ${counted} | ${count('Survived')}, ${count('NoCoverage')} | ${count('CompileError')} | ${count('Ignored')} |`;
}

if (markdown) {
  process.stdout.write('| file | score | detected of counted | survived, not covered | rejected by the type checker | marked equivalent or static |\n');
  process.stdout.write('| --- | ---: | ---: | ---: | ---: | ---: |\n');
}
const failing: string[] = [];
const all: Mutant[] = [];
for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  const count = countOf(mutants);
  const detected = count(...DETECTED);
  all.push(...mutants);
  const { score, line } = scoreLine(detected, detected + count(...UNDETECTED), file);
  process.stdout.write(`${markdown ? markdownRow(`\`${file}\``, score, mutants) : line}\n`);
  if (score < FILE_FLOOR) failing.push(`${line}  (under the ${FILE_FLOOR}% floor of each file)`);
}
const countAll = countOf(all);
const total = scoreLine(countAll(...DETECTED), countAll(...DETECTED, ...UNDETECTED), 'total');
process.stdout.write(`${markdown ? markdownRow('total', total.score, all) : total.line}\n`);
if (total.score < totalFloor) failing.push(`${total.line}  (under the ${totalFloor}% floor of the total, thresholds.break)`);
if (failing.length > 0) {
  process.stderr.write(`Under a floor:\n${failing.join('\n')}\n`);
  process.exitCode = 1;
}
