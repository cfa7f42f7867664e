import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, totalmem } from 'node:os';

export interface Machine {
  readonly cores: number;
  readonly cpu: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly kernel: string;
  /** 1-minute load average when the bench started: other work on the cores skews every figure. */
  readonly loadAverage: number;
}

/** `model name` from /proc/cpuinfo where there is one (what `lscpu` shows), else Node's view. */
function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match?.[1] !== undefined) return match[1].trim();
  } catch {
    // Not Linux: fall through.
  }
  return cpus()[0]?.model ?? 'unknown';
}

/** The machine a table was measured on: ratios travel, absolute figures do not. */
export function describeMachine(): Machine {
  return {
    cores: availableParallelism(),
    cpu: cpuModel(),
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    kernel: release(),
    loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}
