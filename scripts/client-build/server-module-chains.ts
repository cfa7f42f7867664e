import { posix } from 'node:path';
import type * as esbuild from 'esbuild';

/** A glob of a template `import()` (`../lib/**\/*.server.ts`), as a pattern over metafile inputs, from the importer's folder. */
function globPattern(importer: string, glob: string): RegExp {
  const path = posix.join(posix.dirname(importer), glob);
  const source = path
    .split('**/')
    .map((part) =>
      part
        .split('*')
        .map((text) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('(?:[^/]+/)*');
  return new RegExp(`^${source}$`);
}

/** What an input imports: a template `import()`'s glob stands for every input it matches, as the bundle holds them all. */
function importsOf(metafile: esbuild.Metafile, input: string): string[] {
  return (metafile.inputs[input]?.imports ?? []).flatMap(({ path }) => {
    if (!path.includes('*')) return [path];
    const pattern = globPattern(input, path);
    return Object.keys(metafile.inputs).filter((other) => pattern.test(other));
  });
}

/**
 * For each module `isServerModule` picks that the build's entries reach, the shortest chain of
 * imports from an entry to it (inputs of the metafile, entry first, the server module last),
 * dynamic imports included. From the build's own entries, not from every output's: with code
 * splitting, a module imported with `import()` is an output's entry too, and a chain from it
 * would name the server module alone.
 */
export function serverModuleChains(metafile: esbuild.Metafile, entries: readonly string[], isServerModule: (input: string) => boolean): string[][] {
  const cameFrom = new Map<string, string | undefined>(entries.map((entry) => [entry, undefined]));
  const queue = [...cameFrom.keys()];
  const reached: string[] = [];
  for (let index = 0; index < queue.length; index += 1) {
    const input = queue[index] ?? '';
    if (isServerModule(input)) reached.push(input);
    for (const path of importsOf(metafile, input)) {
      if (cameFrom.has(path)) continue;
      cameFrom.set(path, input);
      queue.push(path);
    }
  }
  return reached.map((serverModule) => {
    const chain = [serverModule];
    for (let previous = cameFrom.get(serverModule); previous !== undefined; previous = cameFrom.get(previous)) chain.unshift(previous);
    return chain;
  });
}
