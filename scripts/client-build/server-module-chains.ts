import type * as esbuild from 'esbuild';

/**
 * For each module `isServerModule` picks that the build's entries reach, the shortest chain of
 * imports from an entry to it (inputs of the metafile, entry first, the server module last).
 */
export function serverModuleChains(metafile: esbuild.Metafile, isServerModule: (input: string) => boolean): string[][] {
  const entries = Object.values(metafile.outputs).flatMap((output) => (output.entryPoint === undefined ? [] : [output.entryPoint]));
  const cameFrom = new Map<string, string | undefined>(entries.map((entry) => [entry, undefined]));
  const queue = [...cameFrom.keys()];
  const reached: string[] = [];
  for (let index = 0; index < queue.length; index += 1) {
    const input = queue[index] ?? '';
    if (isServerModule(input)) reached.push(input);
    for (const { path } of metafile.inputs[input]?.imports ?? []) {
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
