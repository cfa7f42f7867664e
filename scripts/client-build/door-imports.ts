import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * The client build imports each public name from the module that defines it, not through the
 * package's door (`shared/index.ts`). esbuild's code splitting places a module by what reaches
 * it, and a door reaches every module it re-exports: a page that imports `Link` from the door
 * would pull the fetcher's code into the chunk every page loads. Rewritten here, each page's
 * chunk holds what it names, as it did when it imported the modules by path. Line breaks are
 * kept, so the build's messages point at the file as written.
 */

/** The door's specifier, as an app imports it. */
export const MAIN_DOOR = 'react-stream-shell';

/** Each public name of a door, with the file that defines it. */
export type DoorMap = ReadonlyMap<string, string>;

const RE_EXPORT = /export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g;
const DOOR_IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*(['"])react-stream-shell\3\s*;?/g;

/** Reads a door module's `export { … } from '…'` statements. */
export function readDoor(file: string): DoorMap {
  const text = readFileSync(file, 'utf8');
  const map = new Map<string, string>();
  for (const [, names = '', from = ''] of text.matchAll(RE_EXPORT)) {
    const source = resolve(dirname(file), from);
    for (const name of names.split(',')) {
      const exported = name
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .at(-1)
        ?.trim();
      if (exported) map.set(exported, source);
    }
  }
  return map;
}

/** The module's text with its imports of the main door split by defining module; `undefined` when it has none. */
export function withDirectImports(text: string, door: DoorMap): string | undefined {
  if (!text.includes(MAIN_DOOR)) return undefined;
  let changed = false;
  const rewritten = text.replace(DOOR_IMPORT, (statement: string, typeOnly: string | undefined, names: string) => {
    const bySource = new Map<string, string[]>();
    // Types are erased: the build needs no module for them (a compiled door does not name them).
    const blank = '\n'.repeat(statement.split('\n').length - 1);
    if (typeOnly !== undefined) {
      changed = true;
      return blank;
    }
    for (const raw of names.split(',')) {
      const specifier = raw.trim();
      if (specifier === '' || specifier.startsWith('type ')) continue;
      const imported =
        specifier
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]
          ?.trim() ?? '';
      const source = door.get(imported);
      // A name the door does not have: left as written, for esbuild to report.
      if (source === undefined) return statement;
      bySource.set(source, [...(bySource.get(source) ?? []), specifier]);
    }
    changed = true;
    const imports = [...bySource].map(([source, specifiers]) => `import { ${specifiers.join(', ')} } from ${JSON.stringify(source)};`);
    return imports.join(' ') + blank;
  });
  return changed ? rewritten : undefined;
}
