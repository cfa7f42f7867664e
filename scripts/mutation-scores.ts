import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Reads the report of `stryker run` (its `json` reporter, reports/mutation/mutation.json) and
 * fails unless every mutated file scores at least the `break` threshold of stryker.config.json.
 * Stryker's own `break` holds the total only: a file far under it could hide behind the others.
 * The score is Stryker's: killed and timed-out mutants over those killed, timed out, survived
 * or not covered; mutants that did not compile or were disabled by a comment do not count.
 */

interface Mutant {
  readonly status: string;
}

interface Report {
  readonly files: Readonly<Record<string, { readonly mutants: readonly Mutant[] }>>;
}

const ROOT = join(import.meta.dirname, '..');
const config: unknown = JSON.parse(readFileSync(join(ROOT, 'stryker.config.json'), 'utf8'));
const thresholds: unknown = typeof config === 'object' && config !== null ? Reflect.get(config, 'thresholds') : undefined;
const floor: unknown = typeof thresholds === 'object' && thresholds !== null ? Reflect.get(thresholds, 'break') : undefined;
if (typeof floor !== 'number') throw new Error('stryker.config.json has no thresholds.break');

function isReport(value: unknown): value is Report {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'files') === 'object';
}

const report: unknown = JSON.parse(readFileSync(join(ROOT, 'reports', 'mutation', 'mutation.json'), 'utf8'));
if (!isReport(report)) throw new Error('reports/mutation/mutation.json is not a mutation report');

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const failing: string[] = [];
for (const [file, { mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  const detected = mutants.filter((mutant) => DETECTED.has(mutant.status)).length;
  const undetected = mutants.filter((mutant) => UNDETECTED.has(mutant.status)).length;
  const total = detected + undetected;
  const score = total === 0 ? 100 : (100 * detected) / total;
  const line = `${score.toFixed(2).padStart(6)}%  ${String(detected).padStart(4)} of ${String(total).padEnd(4)} ${file}`;
  process.stdout.write(`${line}\n`);
  if (score < floor) failing.push(line);
}
if (failing.length > 0) {
  process.stderr.write(`Under the ${floor}% floor of stryker.config.json:\n${failing.join('\n')}\n`);
  process.exitCode = 1;
}
