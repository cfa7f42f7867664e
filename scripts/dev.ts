import { spawn, type ChildProcess } from 'node:child_process';
import { join, relative, resolve, sep } from 'node:path';
import * as esbuild from 'esbuild';
import type { PageAssets } from '../server/render/client-assets.ts';
import { cleanClientOutput, clientBuildOptions, findPageEntries, frameworkModule, APP_ROUTES, PROJECT, writeManifest, type PageEntries } from './build-client.ts';
import { serverBuildOptions } from './build-server.ts';
import { buildDevClient } from './dev/dev-client-build.ts';
import { startDevServer } from './dev/dev-server.ts';
import { buildProblems } from './dev/build-problems.ts';
import { createHotUpdates, styleSwaps, type AfterRestart } from './dev/hot-updates.ts';
import { devModules } from './dev/dev-modules.ts';
import { createSourceWatch } from './dev/source-watch.ts';
import { createDevLogPrinter } from './lib/dev-log.ts';
import { writeRouteTypes } from './route-types/write-route-types.ts';

/**
 * `npm run dev`: esbuild watches client and server; after every rebuild the server restarts
 * (it reads the client manifest once at start). Open pages hear from a small side server
 * (scripts/dev/dev-server.ts): an edit to a component of the app is applied in place with
 * React's Fast Refresh, state kept (scripts/dev/hot-updates.ts); a stylesheet is swapped once
 * the server has restarted; a build error shows in an overlay; anything else reloads them. The
 * route table is read again after every server build: a route, page or layout added or removed
 * gives the client build its new entry points, and a path changed its modules' route types
 * (.react-stream-shell/types), for the editor's type check.
 */
const RELOAD_PORT = Number(process.env.DEV_RELOAD_PORT ?? 35729);
const RELOAD_URL = `http://localhost:${RELOAD_PORT}/events`;
const OUT = join(PROJECT, 'dist', 'dev');
const CLIENT_OUT = join(OUT, 'client');
const SERVER_OUT = join(OUT, 'server');
/** Git-ignored beside the route types; never read in production. */
const DEV_SECRETS = join(PROJECT, '.react-stream-shell', 'dev-secrets.json');

/** The server writes JSON lines, as in production; the developer reads them pretty (scripts/lib/dev-log.ts). */
const printLogLine = createDevLogPrinter({ colors: process.stdout.isTTY === true });
const say = (line: string) => process.stdout.write(`${line}\n`);

/** Every page's bundle registers its components with React's Fast Refresh (client/dev/hot-registry.ts first). */
const DEV_MODULES = devModules(PROJECT);

const devServer = startDevServer({
  port: RELOAD_PORT,
  devClient: await buildDevClient(frameworkModule('client', 'dev', 'dev-client.ts')),
  onRefused: (update, reason) => hotUpdates.refused(update, reason),
  onListenError: (error) => {
    say(`[dev] the pages' side server cannot listen on port ${RELOAD_PORT} (${error.message}): another dev command may have it; DEV_RELOAD_PORT chooses another`);
    process.exit(1);
  },
});

let entries: PageEntries;
const hotUpdates = createHotUpdates({
  project: PROJECT,
  server: devServer,
  buildOptions: () => clientBuildOptions(entries, { outDir: CLIENT_OUT, mode: 'development', dev: DEV_MODULES }),
  routeModules: () => new Set([...entries.files.values(), ...[...entries.layouts.values()].flat()]),
  say,
});
/** What the pages get once the server started last listens: the rounds' since one last listened, the larger step. */
let awaiting: AfterRestart | undefined;
const RANK: Readonly<Record<AfterRestart['kind'], number>> = { nothing: 0, styles: 1, reload: 2 };
const larger = (one: AfterRestart | undefined, other: AfterRestart): AfterRestart => (one === undefined || RANK[other.kind] > RANK[one.kind] ? other : one);
/** The stylesheets the running server serves, and those of the last client build, for the swap. */
let servedAssets: Readonly<Record<string, PageAssets>> = {};
let builtAssets: Readonly<Record<string, PageAssets>> = {};

function tellPages(): void {
  const action = awaiting ?? { kind: 'nothing' };
  awaiting = undefined;
  devServer.restarted();
  if (action.kind === 'reload') devServer.reload();
  else if (action.kind === 'styles') devServer.swapStyles(styleSwaps(servedAssets, builtAssets));
  servedAssets = builtAssets;
  // Said only when nothing is left to do: a save still being decided, or a round under way, will
  // restart the server again. A tool driving the command (a test, a script) waits for this line.
  if (undecided === 0 && building === undefined && !again) say('[dev] ready: every save is built and served');
}

let child: ChildProcess | undefined;

/** A server that has not ended this long after SIGTERM (a browser's connection held open) is ended. */
const STOP_GRACE_MS = 1_000;

function stopServer(): Promise<void> {
  const running = child;
  child = undefined;
  if (running === undefined || running.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => running.kill('SIGKILL'), STOP_GRACE_MS);
    running.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    running.kill('SIGTERM');
  });
}

async function restartServer(action: AfterRestart): Promise<void> {
  await stopServer();
  // A server stopped before it listened told the pages nothing: its round's step waits for this one.
  awaiting = larger(awaiting, action);
  const started = spawn(process.execPath, ['--enable-source-maps', join(SERVER_OUT, 'main.js')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    // Secrets left unset are made once and kept (server/dev-secrets.ts): a restart keeps the visitor signed in.
    env: { DEV_SECRETS_FILE: DEV_SECRETS, ...process.env, NODE_ENV: 'development', ASSETS_DIR: CLIENT_OUT, LIVE_RELOAD_URL: RELOAD_URL },
  });
  child = started;
  // A pipe hands over whatever was written so far: a line can arrive in pieces, or several in
  // one chunk. Lines are printed, pretty, and looked at only once whole.
  let partial = '';
  started.stdout?.setEncoding('utf8');
  started.stdout?.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) process.stdout.write(printLogLine(line));
    if (lines.some(isListeningLine)) tellPages();
  });
}

/** The server's pino line saying it listens (docs/observability.md). */
function isListeningLine(line: string): boolean {
  if (!line.includes('"listening"')) return false;
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null && 'msg' in parsed && parsed.msg === 'listening';
  } catch {
    return false;
  }
}

/** Builds that have finished once: the server starts only when its entry, its bundle and the client are all written. */
const BUILDS = ['client', 'server entry', 'server'] as const;
const builtOnce = new Set<string>();
/**
 * Builds whose last run failed. While one does, nothing restarts: a server rebuilt beside a client
 * that failed would serve new HTML with the old client code, and the page would reload into it
 * as if all were well. The last good server keeps serving until every build passes again.
 */
const failing = new Set<string>();

function afterBuild(name: (typeof BUILDS)[number], after?: (result: esbuild.BuildResult) => Promise<void>): esbuild.Plugin {
  return {
    name: `after-${name}`,
    setup(build) {
      build.onEnd(async (result) => {
        // The overlay shows the client build's errors: the server's are the same files, and it keeps its last good build.
        if (name === 'client') devServer.buildErrors(result.errors.length > 0 ? await buildProblems(result.errors) : undefined);
        if (result.errors.length > 0) {
          failing.add(name);
          process.stdout.write(`[dev] ${name} failed (above): the server keeps its last good build until every build passes\n`);
          return;
        }
        if (result.metafile !== undefined) watchInputs(result.metafile);
        await after?.(result);
        process.stdout.write(`[dev] ${name} rebuilt\n`);
        builtOnce.add(name);
        failing.delete(name);
      });
    },
  };
}

/** The client build's entry points as the route table names them: pages with the layouts around them. */
function entriesKey(entries: PageEntries): string {
  return JSON.stringify([[...entries.files], [...entries.layouts], [...entries.routes]]);
}

/** The client build for `entries`; each build writes the manifest and sends the pages what they can apply in place. */
function clientContext(entries: PageEntries): Promise<esbuild.BuildContext> {
  const options = clientBuildOptions(entries, { outDir: CLIENT_OUT, mode: 'development', dev: DEV_MODULES });
  return esbuild.context({
    ...options,
    plugins: [
      ...(options.plugins ?? []),
      afterBuild('client', async (result) => {
        if (result.metafile === undefined) return;
        builtAssets = await writeManifest(result.metafile, CLIENT_OUT, entries);
        hotUpdates.clientBuilt(result.metafile);
      }),
    ],
  });
}

await writeRouteTypes(APP_ROUTES, PROJECT);
entries = await findPageEntries(APP_ROUTES);
await cleanClientOutput(CLIENT_OUT);
let client = await clientContext(entries);

/**
 * After a server build, which holds the route table: when its pages or layouts changed, the
 * client build is made again with the new entry points, and the server restarts only once that
 * build is written (a server whose page is missing from the manifest refuses to start).
 */
let tableChanged = false;
async function followRouteTable(): Promise<void> {
  const next = await findPageEntries(APP_ROUTES).catch((error: unknown) => {
    process.stdout.write(`[dev] the route table cannot be read: ${error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  });
  if (next === undefined) return;
  // Only the files whose text changed are written: an unchanged table touches none.
  const { written, removed } = await writeRouteTypes(APP_ROUTES, PROJECT);
  if (written.length + removed.length > 0) process.stdout.write(`[dev] route types: ${written.length} file(s) written, ${removed.length} removed\n`);
  if (entriesKey(next) === entriesKey(entries)) return;
  entries = next;
  tableChanged = true;
}

// Development React: its warnings are what dev mode is for. The build fills no compile cache
// here: Node writes one as each run of the server ends, for the next.
const serverOptions = serverBuildOptions(SERVER_OUT, 'chosen-at-run-time');
const servers = await Promise.all(
  (
    [
      ['server entry', serverOptions.entry],
      ['server', serverOptions.server],
    ] as const
  ).map(([name, options]) =>
    esbuild.context({ ...options, metafile: true, plugins: [...(options.plugins ?? []), afterBuild(name, name === 'server' ? followRouteTable : undefined)] }),
  ),
);

/** esbuild's own rebuild rejects when a build fails; the plugin above has said so already. */
async function rebuild(context: esbuild.BuildContext): Promise<void> {
  await context.rebuild().catch(() => undefined);
}

/**
 * One round after a save: first the changed modules the pages can apply in place, built on their
 * own and sent (scripts/dev/hot-updates.ts); then the three builds at once, and, when every build
 * passes, one restart, after which the pages get the round's step (a reload, the stylesheets, or
 * nothing). A save during a round gives one more round after it.
 */
let building: Promise<void> | undefined;
let again = false;
// A page still open from an earlier run of the command gets the first build.
let step: AfterRestart | undefined = { kind: 'reload' };
async function round(): Promise<void> {
  const action = step ?? { kind: 'nothing' };
  step = undefined;
  await Promise.all([rebuild(client), ...servers.map(rebuild)]);
  if (tableChanged) {
    tableChanged = false;
    builtOnce.delete('client');
    await client.dispose();
    process.stdout.write('[dev] the route table changed: building the client with its pages\n');
    client = await clientContext(entries);
    await rebuild(client);
  }
  // While a build fails nothing restarts: the step waits for the round that passes.
  held = larger(held, action);
  if (failing.size > 0 || !BUILDS.every((each) => builtOnce.has(each))) return;
  await restartServer(held);
  held = undefined;
}
let held: AfterRestart | undefined;
function build(): void {
  if (building !== undefined) {
    again = true;
    return;
  }
  building = round().finally(() => {
    building = undefined;
    if (again) {
      again = false;
      build();
    }
  });
}

/** Saves are decided in the order they came, each at once, whatever round is under way. */
let deciding = Promise.resolve();
let undecided = 0;
function onSave(files: readonly string[]): void {
  undecided += 1;
  say(`[dev] saved ${files.map((file) => relative(PROJECT, file).split(sep).join('/')).join(', ')}`);
  deciding = deciding.then(async () => {
    try {
      step = larger(step, await hotUpdates.saved(files));
    } finally {
      undecided -= 1;
      build();
    }
  });
}

/**
 * The folders the builds read, outside node_modules and the output, each watched once
 * (scripts/dev/source-watch.ts). Only a save to a file a build read starts a round: an editor's
 * swap file does not, nor a new file before a module imports it.
 */
const inputs = new Set<string>();
const sources = createSourceWatch({
  project: PROJECT,
  ignore: [join(PROJECT, 'dist'), join(PROJECT, '.react-stream-shell')],
  onChange: (files) => {
    const read = files.filter((file) => inputs.has(file));
    if (read.length > 0) onSave(read);
  },
});
function watchInputs(metafile: esbuild.Metafile): void {
  // A namespaced input (page-entry:home) is made by the build, not read from a file.
  const files = Object.keys(metafile.inputs)
    .filter((input) => !/^[\w-]+:/.test(input))
    .map((input) => resolve(PROJECT, input));
  for (const file of files) inputs.add(file);
  sources.follow(files);
}

build();
process.stdout.write(`[dev] watching; pages refresh through ${RELOAD_URL}\n`);

async function shutdown(): Promise<void> {
  sources.close();
  await Promise.all([client.dispose(), ...servers.map((server) => server.dispose())]);
  await stopServer();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
