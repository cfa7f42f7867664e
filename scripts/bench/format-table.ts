import { ALL_CATEGORIES, CATEGORY_LABELS, type LighthouseMetrics } from './lighthouse.ts';
import type { LighthouseReport } from './lighthouse-section.ts';
import type { BenchReport } from './report.ts';
import type { TargetCheck } from './targets.ts';

type Align = 'left' | 'right';

interface Column {
  readonly header: string;
  readonly align: Align;
}

/** Plain text columns, padded to the widest cell, so the table reads the same in a terminal and in markdown code. */
function textTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((column, index) => Math.max(column.header.length, ...rows.map((row) => (row[index] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => (columns[index]?.align === 'right' ? cell.padStart(widths[index] ?? 0) : cell.padEnd(widths[index] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.header)), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const count = (value: number) => (Number.isNaN(value) ? '-' : integer.format(value));
const fixed = (digits: number) => (value: number | undefined) => (value === undefined || Number.isNaN(value) ? '' : value.toFixed(digits));
const ms = fixed(1);
const ratio = fixed(2);
const mib = fixed(1);

function throughputTable(report: BenchReport): string {
  const columns: Column[] = [
    { header: 'scenario', align: 'left' },
    { header: 'conn', align: 'right' },
    { header: 'server', align: 'left' },
    { header: 'req/s', align: 'right' },
    { header: 'rounds req/s', align: 'right' },
    { header: 'p50 ms', align: 'right' },
    { header: 'p99 ms', align: 'right' },
    { header: 'errors', align: 'right' },
    { header: 'CPU µs', align: 'right' },
    { header: 'RSS MiB', align: 'right' },
    { header: 'x req/s', align: 'right' },
    { header: 'x p99', align: 'right' },
    { header: 'x CPU', align: 'right' },
    { header: 'x RSS', align: 'right' },
    { header: 'ratios to', align: 'left' },
  ];
  const rows = report.rows.map((row) => [
    row.label,
    String(row.connections),
    row.serverLabel,
    count(row.requestsPerSecond),
    row.roundsRequestsPerSecond.map(count).join(' / '),
    ms(row.p50Ms),
    ms(row.p99Ms),
    count(row.errors),
    row.cpuMicrosPerResponse === undefined ? '-' : row.cpuMicrosPerResponse.toFixed(1),
    mib(row.peakRssMiB),
    ratio(row.ratios.requestsPerSecond),
    ratio(row.ratios.p99),
    ratio(row.ratios.cpu),
    ratio(row.ratios.rss),
    row.comparedWith === undefined ? '' : (report.rows.find((other) => other.scenario === row.scenario && other.contender === row.comparedWith)?.serverLabel ?? row.comparedWith),
  ]);
  return textTable(columns, rows);
}

/** The cold start's table alone, as `--cold-start-only` prints it. */
export function coldStartTable(report: Pick<BenchReport, 'coldStart'>): string {
  return textTable(
    [
      { header: 'server', align: 'left' },
      { header: 'median ms', align: 'right' },
      { header: 'samples ms', align: 'left' },
      { header: 'x node:http + React', align: 'right' },
    ],
    report.coldStart.map((row) => [row.serverLabel, ms(row.medianMs), row.samplesMs.map((sample) => ms(sample)).join(' '), ratio(row.ratio)]),
  );
}

function firstLoadTable(report: BenchReport): string {
  const { smallestHydratingBundle: smallest } = report;
  return textTable(
    [
      { header: 'page', align: 'left' },
      { header: 'bytes', align: 'right' },
      { header: 'gzip bytes', align: 'right' },
      { header: 'gzip over smallest', align: 'right' },
    ],
    [
      ...report.firstLoad.map((row) => [row.page, count(row.bytes), count(row.gzipBytes), row.gzipOverSmallest === undefined ? '' : count(row.gzipOverSmallest)]),
      ['smallest hydrating bundle', count(smallest.bytes), count(smallest.gzipBytes), ''],
    ],
  );
}

function lighthouseTable(lighthouse: LighthouseReport): string {
  const numberCell = (format: (value: number | undefined) => string) => (value: number | null | undefined) => (value === null || value === undefined ? '-' : format(value));
  const metricRow = (label: string, key: keyof LighthouseMetrics, format: (value: number | undefined) => string) => [
    label,
    numberCell(format)(lighthouse.median.metrics[key]),
    lighthouse.runs.map((run) => numberCell(format)(run.metrics[key])).join(' / '),
  ];
  const score = numberCell((value) => String(Math.round(value ?? Number.NaN)));
  const table = textTable(
    [
      { header: 'figure', align: 'left' },
      { header: 'median', align: 'right' },
      { header: 'runs', align: 'right' },
    ],
    [
      metricRow('FCP ms', 'fcpMs', ms),
      metricRow('LCP ms', 'lcpMs', ms),
      metricRow('TBT ms', 'tbtMs', ms),
      metricRow('CLS', 'cls', fixed(3)),
      metricRow('Speed Index ms', 'speedIndexMs', ms),
      ...ALL_CATEGORIES.map((category) => [
        `${CATEGORY_LABELS[category]} score`,
        score(lighthouse.median.scores[category]),
        lighthouse.runs.map((run) => score(run.scores[category])).join(' / '),
      ]),
    ],
  );
  const failing = lighthouse.failingAudits.map(
    (audit) =>
      `  ${audit.category}  ${audit.id}: ${audit.title}${audit.displayValue === undefined ? '' : ` (${audit.displayValue})`}, ${audit.runs} of ${lighthouse.runs.length} runs`,
  );
  return [table, ...(failing.length === 0 ? [] : ['Audits that cost points:', ...failing]), ...lighthouse.runWarnings.map((warning) => `Lighthouse warning: ${warning}`)].join(
    '\n',
  );
}

function throttlingText({ throttlingMethod, throttling }: LighthouseReport): string {
  if (throttlingMethod !== 'simulate') return `throttling ${throttlingMethod}`;
  const { rttMs, throughputKbps, cpuSlowdownMultiplier } = throttling;
  const mbps = throughputKbps === undefined ? '?' : (throughputKbps / 1024).toFixed(1);
  return `simulated throttling (${rttMs ?? '?'} ms RTT, ${mbps} Mbps, ${cpuSlowdownMultiplier ?? '?'}x CPU)`;
}

function lighthouseSection(report: BenchReport): string[] {
  const { lighthouse } = report;
  if (lighthouse === undefined) return ['Lighthouse: skipped (--no-lighthouse)', ''];
  return [
    `Lighthouse: ${lighthouse.path} of the product, ${lighthouse.formFactor}, ${throttlingText(lighthouse)}, median of ${lighthouse.runs.length} run${lighthouse.runs.length === 1 ? '' : 's'} (Lighthouse ${lighthouse.lighthouseVersion}, ${lighthouse.browser})`,
    lighthouseTable(lighthouse),
    '',
  ];
}

function targetsTable(checks: readonly TargetCheck[]): string {
  return textTable(
    [
      { header: 'target', align: 'left' },
      { header: 'measured', align: 'right' },
      { header: 'limit', align: 'left' },
      { header: 'met', align: 'left' },
    ],
    checks.map((check) => [
      check.target,
      check.value === undefined ? '-' : Number.isInteger(check.value) ? count(check.value) : ratio(check.value),
      `${check.kind} ${check.limit}`,
      check.met === undefined ? 'not measured' : check.met ? 'yes' : 'NO',
    ]),
  );
}

/** The whole printout: the machine, the load table, cold start, first-load JavaScript, Lighthouse, and the targets. */
export function formatReport(report: BenchReport, checks: readonly TargetCheck[]): string {
  const { machine, settings } = report;
  return [
    `Machine: ${machine.cores} cores, ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node}, Linux ${machine.kernel}, load average ${machine.loadAverage} at start`,
    `Runs: ${settings.durationSeconds} s each, ${settings.rounds} rounds interleaved (A B A B), ${settings.warmupSeconds} s warm-up per server; commit ${report.commit ?? 'unknown'}`,
    '',
    throughputTable(report),
    '',
    `Cold start: spawn to first 200 on /, median of ${settings.coldStarts}`,
    coldStartTable(report),
    '',
    'First-load JavaScript',
    firstLoadTable(report),
    '',
    ...lighthouseSection(report),
    'Targets',
    targetsTable(checks),
    '',
  ].join('\n');
}
