import type ts from 'typescript';

/**
 * A build error about one place in a module's source: the page modules plugin hands its line,
 * column and text to esbuild, which prints them as it prints its own errors.
 */
export class LocatedError extends Error {
  readonly line: number;
  readonly column: number;
  readonly lineText: string;

  constructor(message: string, source: ts.SourceFile, at: ts.Node) {
    super(message);
    const { line, character } = source.getLineAndCharacterOfPosition(at.getStart(source));
    this.line = line + 1;
    this.column = character;
    this.lineText = source.text.split('\n')[line] ?? '';
  }
}
