import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { generatedHeader, ROUTE_TYPES_FOLDER, routeTypeFiles } from './route-type-files.ts';

/** What a run changed: the files written anew and the ones removed, their modules gone from the table. */
export interface RouteTypesWritten {
  readonly written: readonly string[];
  readonly removed: readonly string[];
}

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The generated files already in the project's types folder. */
async function existingFiles(folder: string): Promise<string[]> {
  try {
    const entries = await readdir(folder, { withFileTypes: true, recursive: true });
    return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts')).map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

/**
 * Writes the route types of a table into the project's types folder: only the files whose text
 * changed (an editor's type checker then reads again only those), and removes the files this
 * table wrote before for modules it no longer names. Another table's files stay.
 */
export async function writeRouteTypes(routesModule: string, project: string): Promise<RouteTypesWritten> {
  const files = await routeTypeFiles(routesModule, project);
  const written: string[] = [];
  for (const { file, content } of files) {
    if ((await readIfThere(file)) === content) continue;
    await mkdir(dirname(file), { recursive: true });
    // Written beside and renamed over: an editor's type checker, or anything watching the
    // folder, sees the old file or the new one, never one created and not yet filled (a
    // writeFile opens, truncates and writes in separate steps).
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, content);
    await rename(partial, file);
    written.push(file);
  }
  const header = `${generatedHeader(relative(project, routesModule).split(sep).join('/'))}\n`;
  const kept = new Set(files.map(({ file }) => file));
  const removed: string[] = [];
  for (const file of await existingFiles(join(project, ROUTE_TYPES_FOLDER))) {
    if (kept.has(file) || !(await readIfThere(file))?.startsWith(header)) continue;
    await rm(file, { force: true });
    removed.push(file);
  }
  return { written, removed };
}
