import { readFile, stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import type * as esbuild from 'esbuild';
import type { PageAssets } from '../../server/render/client-assets.ts';
import type { DevServer } from './dev-server.ts';
import { buildHotModule, type HotModule } from './hot-module.ts';
import { isRefreshed } from './refresh-transform.ts';

/** What the open pages get once the restarted server listens, after a client build. */
export type AfterRestart = { readonly kind: 'reload' } | { readonly kind: 'styles' } | { readonly kind: 'nothing' };

export interface HotUpdatesOptions {
  readonly project: string;
  readonly server: DevServer;
  /** The client build's settings as they are now (its route table may have changed). */
  readonly buildOptions: () => esbuild.BuildOptions;
  /** The route table's page and layout modules: a change to one that leaves the browser's code as it was is its `load`, `action` or `head`. */
  readonly routeModules: () => ReadonlySet<string>;
  /** One line in the terminal. */
  readonly say: (line: string) => void;
}

/** How long an empty file is watched for the rest of its save. */
const EMPTY_READ_WAIT_MS = 100;

/**
 * A save's text. A file noticed empty may be one a writer has opened and truncated and not yet
 * written (Node's writeFile takes those as separate steps, some editors too): its modification
 * time is watched a moment for the write, and it is read again, as Vite's readModifiedFile does.
 * An empty module sent at once would be a page with its components gone.
 */
async function readSaved(file: string): Promise<string | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text !== '') return text;
  const first = await stat(file).catch(() => undefined);
  for (let waited = 0; waited < EMPTY_READ_WAIT_MS; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    const now = await stat(file).catch(() => undefined);
    if (now === undefined || now.mtimeMs !== first?.mtimeMs || now.size > 0) break;
  }
  return readFile(file, 'utf8').catch(() => undefined);
}

interface Seen {
  readonly source: string;
  readonly module: HotModule;
}

/**
 * Decides, as soon as a save is noticed and before the builds, what the open pages do about the
 * files that changed: an app module of the pages' code whose browser code changed is built on
 * its own and sent at once (Fast Refresh: a page refuses it, and reloads, when its exports
 * changed shape); a page or layout module whose browser code did not change had its server part
 * edited, and pages reload once the server has restarted, so its loads run again; stylesheets are
 * swapped then; any other file (the framework's, a server module) reloads them after the restart.
 */
export function createHotUpdates({ project, server, buildOptions, routeModules, say }: HotUpdatesOptions) {
  const appDir = resolve(project, 'app');
  const seen = new Map<string, Seen>();
  /** The files the last client build read: what the pages run. */
  let clientInputs = new Set<string>();
  let updates = 0;
  const said = new Set<number>();
  const updateFiles = new Map<number, readonly string[]>();
  const shown = (file: string) => relative(project, file).split(sep).join('/');

  async function built(file: string): Promise<Seen | undefined> {
    const source = await readSaved(file);
    if (source === undefined) return undefined;
    const module = await buildHotModule(file, buildOptions()).catch(() => undefined);
    return module === undefined ? undefined : { source, module };
  }

  /** Each new app module of the client build, built once in the background, to compare the next saves with. */
  async function remember(files: readonly string[]): Promise<void> {
    for (const file of files) {
      if (seen.has(file) || !isRefreshed(file, appDir)) continue;
      const now = await built(file);
      if (now !== undefined && !seen.has(file)) seen.set(file, now);
    }
  }

  return {
    /** After each client build that passed: what the pages run now. */
    clientBuilt(metafile: esbuild.Metafile): void {
      clientInputs = new Set(
        Object.keys(metafile.inputs)
          .filter((input) => !/^[\w-]+:/.test(input))
          .map((input) => resolve(project, input)),
      );
      void remember([...clientInputs]);
    },

    /** A page could not apply `update`: said once, however many pages say it. */
    refused(update: number, reason: string): void {
      if (said.has(update)) return;
      said.add(update);
      say(`[dev] ${(updateFiles.get(update) ?? []).join(', ')}: Fast Refresh could not apply the edit (${reason}): the page reloads`);
    },

    /** The files a save changed: sends what can be applied in place, and says what the pages get after the restart. */
    async saved(changed: readonly string[]): Promise<AfterRestart> {
      const inClient = changed.filter((file) => clientInputs.has(file));
      const refreshed = inClient.filter((file) => isRefreshed(file, appDir));
      const styles = inClient.some((file) => file.endsWith('.css'));
      // A server module, the framework, a file no page has yet: the restarted server has it.
      const elsewhere = changed.filter((file) => !refreshed.includes(file) && !(file.endsWith('.css') && clientInputs.has(file)));
      if (elsewhere.length > 0) {
        say(`[dev] ${elsewhere.map(shown).join(', ')}: not a component of the pages: they reload once the server has restarted`);
        return { kind: 'reload' };
      }
      const hot: { path: string; module: HotModule }[] = [];
      let serverPart: string | undefined;
      for (const file of refreshed) {
        const before = seen.get(file);
        const now = await built(file);
        // It does not build: the client build says why, in the terminal and the overlay.
        if (now === undefined) continue;
        seen.set(file, now);
        if (before?.source === now.source) continue;
        if (before?.module.browserCode !== now.module.browserCode) hot.push({ path: file, module: now.module });
        else if (routeModules().has(file)) serverPart = file;
      }
      if (hot.length > 0) {
        updates += 1;
        const files = hot.map(({ path }) => shown(path));
        updateFiles.set(updates, files);
        server.hot({ id: updates, modules: hot.map(({ path, module }) => ({ path, url: server.host(shown(path), module.code) })) });
        say(`[dev] ${files.join(', ')}: applied in place (Fast Refresh)`);
      }
      if (serverPart !== undefined) {
        say(`[dev] ${shown(serverPart)}: its server part changed (load, action or head): the page reloads once the server has restarted`);
        return { kind: 'reload' };
      }
      return { kind: styles ? 'styles' : 'nothing' };
    },
  };
}

/** Each stylesheet a route's page had before the build, with the one it has now. */
export function styleSwaps(before: Readonly<Record<string, PageAssets>>, after: Readonly<Record<string, PageAssets>>): [string, string][] {
  const swaps = new Map<string, string>();
  for (const [route, assets] of Object.entries(after)) {
    const old = before[route]?.styles ?? [];
    assets.styles.forEach((style, index) => {
      const was = old[index];
      if (was !== undefined && was !== style) swaps.set(was, style);
    });
  }
  return [...swaps];
}
