import ts from 'typescript';
import { importBindings } from './top-level-code.ts';

type Range = readonly [start: number, end: number];

/** A whole statement, with its doc comment; its first character becomes `;`, so the code around it never joins across the gap. */
function statementRange(statement: ts.Statement, source: ts.SourceFile): Range {
  return [statement.getStart(source, true), statement.end];
}

/**
 * Some elements of a comma list, some kept: each cut one goes with the comma after it, or,
 * after the last kept one, with the comma before it (`const a = 1, b = 2` → `const a = 1`).
 */
function listRanges(elements: readonly ts.Node[], cut: ReadonlySet<ts.Node>): Range[] {
  const lastKept = elements.findLastIndex((element) => !cut.has(element));
  return elements.flatMap((element, index): Range[] => {
    if (!cut.has(element)) return [];
    const next = elements[index + 1];
    const previous = elements[index - 1];
    if (index < lastKept && next !== undefined) return [[element.pos, next.pos]];
    return previous === undefined ? [] : [[previous.end, element.end]];
  });
}

function importRanges(statement: ts.ImportDeclaration, cut: ReadonlySet<ts.Node>, source: ts.SourceFile): { whole: Range[] } | { parts: Range[] } {
  const bindings = importBindings(statement);
  const clause = statement.importClause;
  if (bindings.length === 0 || clause === undefined || !bindings.some((binding) => cut.has(binding))) return { parts: [] };
  if (bindings.every((binding) => cut.has(binding))) return { whole: [statementRange(statement, source)] };
  const { name, namedBindings: named } = clause;
  // A default name alone, or a namespace alone, went whole above or stays.
  if (named === undefined) return { parts: [] };
  if (name === undefined) return { parts: ts.isNamedImports(named) ? listRanges(named.elements, cut) : [] };
  const everyNamedCut = ts.isNamespaceImport(named) ? cut.has(named) : named.elements.every((element) => element.isTypeOnly || cut.has(element));
  const parts: Range[] = [];
  // `D, { a }`: with D cut, `D, ` goes; with every named binding cut, `, { a }` goes.
  if (cut.has(clause)) parts.push([name.getStart(source), named.getStart(source)]);
  if (everyNamedCut) parts.push([name.end, named.end]);
  else if (ts.isNamedImports(named)) parts.push(...listRanges(named.elements, cut));
  return { parts };
}

/** The text ranges that cutting `cut` (top-level statements, declarators, import and export specifiers) takes away; whole statements are marked. */
function rangesOf(source: ts.SourceFile, cut: ReadonlySet<ts.Node>): { whole: Range[]; parts: Range[] } {
  const whole: Range[] = [];
  const parts: Range[] = [];
  for (const statement of source.statements) {
    if (cut.has(statement)) whole.push(statementRange(statement, source));
    else if (ts.isVariableStatement(statement)) {
      const { declarations } = statement.declarationList;
      if (declarations.every((declarator) => cut.has(declarator))) whole.push(statementRange(statement, source));
      else parts.push(...listRanges(declarations, cut));
    } else if (ts.isImportDeclaration(statement)) {
      const ranges = importRanges(statement, cut, source);
      if ('whole' in ranges) whole.push(...ranges.whole);
      else parts.push(...ranges.parts);
    } else if (ts.isExportDeclaration(statement) && statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause)) {
      const { elements } = statement.exportClause;
      if (!elements.some((element) => cut.has(element))) continue;
      if (elements.every((element) => element.isTypeOnly || cut.has(element))) whole.push(statementRange(statement, source));
      else parts.push(...listRanges(elements, cut));
    }
  }
  return { whole, parts };
}

/**
 * The module's text without what `cut` names, each cut character replaced by a space and every
 * line break kept: what stays keeps its line and column, so the build's messages point at the
 * file as written.
 */
export function cutCode(source: ts.SourceFile, cut: ReadonlySet<ts.Node>): string {
  const text = source.text.split('');
  const blank = ([start, end]: Range) => {
    for (let index = start; index < end; index += 1) if (text[index] !== '\n' && text[index] !== '\r') text[index] = ' ';
  };
  const { whole, parts } = rangesOf(source, cut);
  for (const range of [...whole, ...parts]) blank(range);
  for (const [start] of whole) text[start] = ';';
  return text.join('');
}
