import { execFileSync } from 'node:child_process';

/**
 * Pins every thread of a process (V8's and libuv's included; threads made later inherit it) to
 * the given CPUs, with util-linux's `taskset`: Node has no API for a process's affinity.
 */
export function pinToCpus(pid: number, cpus: readonly number[]): void {
  execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpus.join(','), String(pid)], { stdio: 'ignore' });
}

/** Expands a CPU list as taskset prints it ("0-3,6") into numbers. */
export function parseCpuList(list: string): number[] {
  return list.split(',').flatMap((part) => {
    const [first = '', last = first] = part.trim().split('-');
    const from = Number(first);
    const to = Number(last);
    if (!Number.isInteger(from) || !Number.isInteger(to) || from > to) throw new Error(`not a CPU list: ${JSON.stringify(list)}`);
    return Array.from({ length: to - from + 1 }, (_, index) => from + index);
  });
}

/**
 * The CPUs this process may run on, split into one for a pair of servers and the rest for their
 * load; or why that cannot be done here (a single CPU, or no taskset).
 */
export function splitCpus(): { readonly servers: readonly number[]; readonly load: readonly number[] } | { readonly unavailable: string } {
  let printed: string;
  try {
    printed = execFileSync('taskset', ['--cpu-list', '--pid', String(process.pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return { unavailable: 'it needs taskset (Debian: apt-get install util-linux)' };
  }
  // "pid 123's current affinity list: 0,1"
  const cpus = parseCpuList(printed.slice(printed.lastIndexOf(':') + 1));
  const [first, ...rest] = cpus;
  if (first === undefined || rest.length === 0) return { unavailable: 'it needs two CPUs: one for both servers, one for their load' };
  return { servers: [first], load: rest };
}
