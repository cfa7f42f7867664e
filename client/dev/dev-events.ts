/**
 * Development only: what `react-stream-shell dev` (scripts/dev/) sends an open page
 * (client/dev/dev-client.ts) beside `reload`.
 */

/** `hot`: the changed modules, each built on its own, the page imports those it runs. */
export interface HotUpdate {
  readonly id: number;
  readonly modules: readonly { readonly path: string; readonly url: string }[];
}

/** `build-error`: one of esbuild's messages, as the terminal shows it. */
export interface BuildProblem {
  readonly text: string;
  readonly file?: string | undefined;
  readonly line?: number | undefined;
  readonly column?: number | undefined;
  /** The lines around it with a caret, or a stack. */
  readonly frame: string;
}
