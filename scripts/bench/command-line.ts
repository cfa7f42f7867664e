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
