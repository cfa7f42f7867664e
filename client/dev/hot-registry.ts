import * as RefreshRuntime from 'react-refresh/runtime';

/**
 * Development only, the first module of every page's bundle (scripts/build-client.ts): it must
 * run before react-dom, which finds React's Fast Refresh runtime through the hook it installs.
 *
 * Every module of the app's folder, as the dev build gives it (scripts/dev/refresh-transform.ts),
 * registers its components with the runtime and its namespace here, beside the namespaces of
 * the modules it imports. A hot module, one changed file built on its own, imports those
 * through this registry (so it gets the same React, the same contexts, the same modules), and
 * is accepted when its exports are components as before: React then renders the new
 * functions in place, each component keeping its state.
 */
RefreshRuntime.injectIntoGlobalHook(globalThis);

type Namespace = Readonly<Record<string, unknown>>;

/** Why a hot module could not be applied in place: the page reloads, and the terminal is told. */
export class RefreshRefusedError extends Error {
  override readonly name = 'RefreshRefusedError';
}

export interface HotRegistry {
  /** `$RefreshReg$` of the module `moduleId`. */
  readonly registerFor: (moduleId: string) => (type: unknown, name: string) => void;
  readonly signature: typeof RefreshRuntime.createSignatureFunctionForTransform;
  /** A module an app module imports, under its resolved path: kept as first seen. */
  readonly keep: (path: string, namespace: Namespace) => void;
  /** What a hot module imports: the namespace the page's bundle holds for `path`. */
  readonly need: (path: string) => Namespace;
  /** An app module ran: the first time as part of the bundle, then once per hot module. */
  readonly ran: (path: string, namespace: Namespace) => void;
  /** Whether this page runs the module at `path` (a page's bundle holds only its own). */
  readonly holds: (path: string) => boolean;
  /** Imports the hot modules at `urls`, then refreshes once; rejects with why it could not. */
  readonly apply: (urls: readonly string[]) => Promise<void>;
}

const modules = new Map<string, Namespace>();
/** Set while hot modules run: the first reason one of them cannot be applied in place. */
let refused: string | undefined;

/** Like @vitejs/plugin-react's boundary check: the same names, each a component or unchanged. */
function refusal(before: Namespace, after: Namespace): string | undefined {
  const names = Object.keys(after);
  const removed = Object.keys(before).filter((name) => !(name in after));
  if (removed.length > 0) return `its exports changed (${removed.join(', ')} removed)`;
  const added = names.filter((name) => !(name in before));
  if (added.length > 0) return `its exports changed (${added.join(', ')} added)`;
  if (names.length === 0) return 'it exports nothing to refresh';
  const other = names.find((name) => !RefreshRuntime.isLikelyComponentType(after[name]) && !unchanged(before[name], after[name]));
  return other === undefined ? undefined : `its export ${other} is not a component`;
}

/** A value the edit left as it was: the same, or a function of the same text (a layout's shouldRevalidate beside its component). */
function unchanged(before: unknown, after: unknown): boolean {
  return before === after || (typeof before === 'function' && typeof after === 'function' && String(before) === String(after));
}

const registry: HotRegistry = {
  registerFor: (moduleId) => (type, name) => RefreshRuntime.register(type, `${moduleId} ${name}`),
  signature: RefreshRuntime.createSignatureFunctionForTransform,
  keep(path, namespace) {
    if (!modules.has(path)) modules.set(path, namespace);
  },
  need(path) {
    const namespace = modules.get(path);
    if (namespace === undefined) throw new RefreshRefusedError(`it imports ${path}, which this page has not loaded`);
    return namespace;
  },
  ran(path, namespace) {
    const before = modules.get(path);
    modules.set(path, namespace);
    if (before !== undefined) refused ??= refusal(before, namespace);
  },
  holds: (path) => modules.has(path),
  async apply(urls) {
    refused = undefined;
    for (const url of urls) await import(url);
    if (refused !== undefined) throw new RefreshRefusedError(refused);
    RefreshRuntime.performReactRefresh();
  },
};

declare global {
  var __reactStreamShellHot: HotRegistry | undefined;
}
globalThis.__reactStreamShellHot = registry;
