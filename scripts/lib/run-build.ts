import { ClientBuildError } from '../build-client.ts';
import { RouteTableError } from '../client-build/route-table-reader.ts';

/** esbuild's own failure: it has printed its messages (the server's build logs at `warning`). */
function isEsbuildFailure(error: unknown): boolean {
  return error instanceof Error && 'errors' in error && Array.isArray(error.errors);
}

/**
 * Runs a build command's steps. A failure the developer must fix in their code (a route table
 * the build cannot read, a page esbuild cannot build, a server module that does not compile) is
 * said once on stderr, with the file, the line and what to write, and exit code 1: not Node's
 * stack of the build script and esbuild's error object dumped after it, which bury the message.
 * Anything else is a fault of the build itself, and keeps its stack.
 */
export async function runBuild(steps: () => Promise<void>): Promise<void> {
  try {
    await steps();
  } catch (error) {
    if (error instanceof ClientBuildError || error instanceof RouteTableError) process.stderr.write(`build failed: ${error.message}\n`);
    else if (isEsbuildFailure(error)) process.stderr.write('build failed: the server bundle, for the reasons esbuild gave above\n');
    else throw error;
    process.exitCode = 1;
  }
}
