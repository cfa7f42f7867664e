import { spawnSync } from 'node:child_process';

/**
 * CI's dependency check: fail on a high or critical advisory in the production
 * dependencies that has a fix. Advisories without a fix are printed but cannot be acted on.
 * When the registry does not serve the advisory endpoint at all (some mirrors refuse its
 * POST), say so loudly and do not pretend the check passed or failed.
 */
interface AuditVulnerability {
  readonly name: string;
  readonly severity: string;
  readonly fixAvailable: unknown;
}

interface AuditReport {
  readonly vulnerabilities?: Readonly<Record<string, AuditVulnerability>>;
  readonly error?: { readonly summary?: string };
  readonly message?: string;
}

const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8' });
let report: AuditReport;
try {
  report = JSON.parse(run.stdout);
} catch {
  process.stderr.write(`npm audit printed no report (exit ${run.status}):\n${run.stderr}\n`);
  process.exit(1);
}

if (report.vulnerabilities === undefined) {
  process.stdout.write(`npm audit: the registry's advisory endpoint is unavailable here (${report.message ?? 'no details'}); dependency check NOT performed\n`);
  process.exit(0);
}

const serious = Object.values(report.vulnerabilities).filter((v) => v.severity === 'high' || v.severity === 'critical');
const fixable = serious.filter((v) => v.fixAvailable !== false);
for (const v of serious) process.stdout.write(`${v.severity}: ${v.name}${v.fixAvailable === false ? ' (no fix available)' : ' (fix available)'}\n`);
if (fixable.length > 0) {
  process.stderr.write(`npm audit: ${fixable.length} high or critical advisories with a fix: update them\n`);
  process.exit(1);
}
process.stdout.write(`npm audit: no high or critical advisory with a fix (${serious.length} without a fix)\n`);
