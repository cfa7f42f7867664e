import * as esbuild from 'esbuild';
import type { BuildProblem } from '../../client/dev/dev-events.ts';

/** esbuild's errors as the overlay shows them: where, what, and the code frame the terminal prints. */
export async function buildProblems(errors: readonly esbuild.Message[]): Promise<BuildProblem[]> {
  // Without the notes on which plugin and which import led there: the file and its line are the news.
  const frames = await esbuild.formatMessages(
    errors.map((error) => ({ ...error, notes: [], pluginName: '' })),
    { kind: 'error', color: false },
  );
  return errors.map((error, index) => ({
    text: error.text,
    file: error.location?.file,
    line: error.location?.line,
    column: error.location?.column,
    frame: frames[index] ?? '',
  }));
}
