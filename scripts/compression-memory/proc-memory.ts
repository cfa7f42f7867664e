import { readFileSync } from 'node:fs';

/**
 * A field of /proc/<pid>/status in bytes: `VmRSS` (resident now) or `VmHWM` (the kernel's
 * high-water mark of it, so no peak between two polls is missed). `undefined` where /proc is
 * not available or the process is gone.
 */
export function procMemoryBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}
