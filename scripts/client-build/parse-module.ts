import { extname } from 'node:path';
import ts from 'typescript';

const KINDS: Readonly<Record<string, ts.ScriptKind>> = { '.tsx': ts.ScriptKind.TSX, '.jsx': ts.ScriptKind.JSX, '.js': ts.ScriptKind.JS, '.mjs': ts.ScriptKind.JS };

/** How the TypeScript parser reads a module, by its extension (TypeScript when in doubt). */
export function scriptKindOf(file: string): ts.ScriptKind {
  return KINDS[extname(file)] ?? ts.ScriptKind.TS;
}

/** A module parsed with its parents set, as the build's readers need it. */
export function parseModule(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKindOf(file));
}
