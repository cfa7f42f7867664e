import { readFileSync } from 'node:fs';

/**
 * The peak resident set of a live process, from Linux's `VmHWM` ("high water mark") in
 * /proc/<pid>/status: the kernel tracks it, so no sample between two polls can be missed.
 * `undefined` where /proc is not available or the process is gone.
 */
export function peakRssBytes(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}
