import { readFileSync } from 'node:fs';

/**
 * Linux reports a process's CPU time in clock ticks of USER_HZ, which the kernel's ABI fixes at
 * 100 per second on every architecture Node runs on (`getconf CLK_TCK`).
 */
const MICROS_PER_TICK = 10_000;

/**
 * CPU time a live process has used so far, user and system, all its threads (the garbage
 * collector's and libuv's included), from /proc/<pid>/stat. `undefined` where /proc is not
 * available or the process is gone.
 */
export function cpuTimeMicros(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: state is the
    // 3rd field of the line, utime the 14th and stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const user = Number(fields[11]);
    const system = Number(fields[12]);
    return Number.isFinite(user) && Number.isFinite(system) ? (user + system) * MICROS_PER_TICK : undefined;
  } catch {
    return undefined;
  }
}
