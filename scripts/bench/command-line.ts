/** A line about how the run goes: to stderr, so that stdout holds only the result. */
export function progress(line: string): void {
  process.stderr.write(`${line}\n`);
}

/**
 * The command's options from its flags and `process.env`: `--help` prints the usage and exits
 * 0; a bad value prints what is wrong, then the usage, and exits 2.
 */
export function readOptions<T>(parse: (args: readonly string[], env: NodeJS.ProcessEnv) => T, usage: string): T {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  try {
    return parse(args, process.env);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message}\n${message.includes(usage) ? '' : `${usage}\n`}`);
    process.exit(2);
  }
}

/**
 * Readers of numeric flags for a command whose usage is `usage`: a value left unset is the
 * fallback; one out of range, or not whole where a count is asked for, throws with the usage.
 */
export function numericFlags(usage: string) {
  function number(flag: string, raw: string | undefined, fallback: number, min: number, max: number): number {
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) {
      throw new Error(`Invalid ${flag}=${JSON.stringify(raw)}: expected a number from ${min} to ${max}\n${usage}`);
    }
    return value;
  }
  function integer(flag: string, raw: string | undefined, fallback: number, min: number, max: number): number {
    const value = number(flag, raw, fallback, min, max);
    if (!Number.isInteger(value)) throw new Error(`Invalid ${flag}=${JSON.stringify(raw)}: expected a whole number\n${usage}`);
    return value;
  }
  return { number, integer };
}
