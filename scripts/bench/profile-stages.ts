import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { attributeStages, parseCpuProfile, type CallFrame } from './cpu-profile-stages.ts';
import { readOptions } from './command-line.ts';

/**
 * `node scripts/bench/profile-stages.ts FILE.cpuprofile [--cpu-us N]`: the product's time in a
 * profile the bench wrote (`npm run bench -- --cpu-prof DIR`), by stage of an answer
 * (cpu-profile-stages.ts), each frame traced to its source through the bundle's source map, as
 * shares of the busy time. A profile's clock is the wall's: on a shared machine a sample the
 * kernel kept waiting lasts longer than the CPU it stands for, so the shares are the figure, and
 * `--cpu-us`, the CPU per answer `/proc` gave in the same run (the table's CPU µs), turns
 * them into microseconds per answer.
 */
const USAGE = 'node scripts/bench/profile-stages.ts FILE.cpuprofile [--cpu-us N]';

interface ProfileStagesOptions {
  readonly file: string;
  /** CPU µs per answer of the profiled process, from /proc. */
  readonly cpuMicros: number | undefined;
}

function parseProfileStagesOptions(args: readonly string[]): ProfileStagesOptions {
  const { values, positionals } = parseArgs({ args: [...args], options: { 'cpu-us': { type: 'string' } }, allowPositionals: true });
  const file = positionals[0];
  if (file === undefined || positionals.length > 1) throw new Error(`one .cpuprofile file, please\n${USAGE}`);
  const raw = values['cpu-us'];
  const cpuMicros = raw === undefined ? undefined : Number(raw);
  if (cpuMicros !== undefined && (!Number.isFinite(cpuMicros) || cpuMicros <= 0)) throw new Error(`Invalid --cpu-us=${JSON.stringify(raw)}: expected a number above 0\n${USAGE}`);
  return { file, cpuMicros };
}

/** The file a frame was written in: through the bundle's `.map` beside it when there is one, else its URL. */
function sourceResolver(): (frame: CallFrame) => string {
  const maps = new Map<string, SourceMap | undefined>();
  function mapOf(url: string): SourceMap | undefined {
    if (!maps.has(url)) {
      const path = url.startsWith('file://') ? `${fileURLToPath(url)}.map` : undefined;
      maps.set(url, path !== undefined && existsSync(path) ? new SourceMap(JSON.parse(readFileSync(path, 'utf8'))) : undefined);
    }
    return maps.get(url);
  }
  return function sourceOf(frame) {
    const entry = mapOf(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
    return entry !== undefined && 'originalSource' in entry ? entry.originalSource : frame.url;
  };
}

const options = readOptions(parseProfileStagesOptions, USAGE);
const { stages, busyMicros } = attributeStages(parseCpuProfile(readFileSync(options.file, 'utf8')), sourceResolver());
const { cpuMicros } = options;
const perAnswer = (micros: number) => (cpuMicros === undefined ? '' : ((cpuMicros * micros) / busyMicros).toFixed(1));
const rows = [...stages].sort((a, b) => b.micros - a.micros);
const width = Math.max(...rows.map(({ stage }) => stage.label.length), 'stage'.length);
const lines = [
  `${'stage'.padEnd(width)}  ${'µs/answer'.padStart(9)}  ${'share'.padStart(6)}`,
  `${'-'.repeat(width)}  ${'-'.repeat(9)}  ${'-'.repeat(6)}`,
  ...rows.map(({ stage, micros }) => `${stage.label.padEnd(width)}  ${perAnswer(micros).padStart(9)}  ${`${((100 * micros) / busyMicros).toFixed(1)} %`.padStart(6)}`),
  `${'all (the profile saw, idle aside)'.padEnd(width)}  ${perAnswer(busyMicros).padStart(9)}  100.0 %`,
];
process.stdout.write(`${lines.join('\n')}\n`);
