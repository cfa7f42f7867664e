import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { callers, inclusiveTimes, parseCpuProfile, selfTimes, type SelfTime } from './cpu-profile.ts';

/**
 * `node scripts/bench/summarize-cpu-profile.ts FILE.cpuprofile [--top N] [--include-idle]
 * [--callers NAME]`: the functions and packages with the most self time, and with `--callers`
 * the call chains that lead to one function. Inclusive times follow, to price whole middlewares. `(idle)` (waiting for I/O) is left out
 * of the shares unless asked for, so the shares say where the busy CPU went.
 */
const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  options: {
    top: { type: 'string', default: '25' },
    'include-idle': { type: 'boolean', default: false },
    callers: { type: 'string', multiple: true, default: [] },
  },
  allowPositionals: true,
});
const top = Number(values.top);
if (positionals.length === 0 || !Number.isInteger(top) || top < 1) {
  process.stderr.write('usage: node scripts/bench/summarize-cpu-profile.ts FILE.cpuprofile... [--top N] [--include-idle] [--callers NAME]\n');
  process.exit(2);
}

function busy(times: readonly SelfTime[]): SelfTime[] {
  if (values['include-idle']) return [...times];
  const kept = times.filter((time) => time.name !== '(idle)' && !time.name.startsWith('(idle) '));
  const total = kept.reduce((sum, time) => sum + time.selfMs, 0);
  return kept.map((time) => ({ ...time, share: total === 0 ? 0 : time.selfMs / total }));
}

function print(title: string, times: readonly SelfTime[]): void {
  process.stdout.write(`${title}\n`);
  for (const time of times.slice(0, top)) {
    process.stdout.write(`${(time.share * 100).toFixed(1).padStart(5)}%  ${time.selfMs.toFixed(0).padStart(7)} ms  ${time.name}\n`);
  }
  process.stdout.write('\n');
}

for (const file of positionals) {
  const profile = parseCpuProfile(readFileSync(file, 'utf8'));
  const byFunction = busy(selfTimes(profile));
  const busyMs = byFunction.reduce((sum, time) => sum + time.selfMs, 0);
  process.stdout.write(`${file}: ${busyMs.toFixed(0)} ms busy\n\n`);
  print('self time by package', busy(selfTimes(profile, true)));
  print('self time by function', byFunction);
  print('inclusive time by function (share of busy time)', inclusiveTimes(profile));
  for (const name of values.callers) print(`callers of ${name} (share of its self time)`, callers(profile, name));
}
