import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { cleanClientOutput, clientBuildOptions, findPageEntries, APP_ROUTES, PROJECT, writeManifest, type PageEntries } from './build-client.ts';
import { serverBuildOptions } from './build-server.ts';
import { createDevLogPrinter } from './lib/dev-log.ts';
import { writeRouteTypes } from './route-types/write-route-types.ts';

/**
 * `npm run dev`: esbuild watches client and server; after every rebuild the server restarts
 * (it reads the client manifest once at start) and open pages reload through server-sent
 * events from a small side server. The route table is read again after every server build: a
 * route, page or layout added or removed gives the client build its new entry points, and a
 * path changed its modules' route types (.react-stream-shell/types), for the editor's type check.
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

const listeners = new Set<ServerResponse>();
createServer(function reloadEvents(req, res) {
  if (req.url !== '/events') {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-store',
    // The page is served from another port: EventSource needs CORS.
    'Access-Control-Allow-Origin': '*',
  });
  res.write(': connected\n\n');
  listeners.add(res);
  req.on('close', () => listeners.delete(res));
}).listen(RELOAD_PORT, '127.0.0.1');

function reloadPages(): void {
  for (const res of listeners) res.write('event: reload\ndata: now\n\n');
}

let child: ChildProcess | undefined;
let restartTimer: NodeJS.Timeout | undefined;

function stopServer(): Promise<void> {
  const running = child;
  child = undefined;
  if (running === undefined || running.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    running.once('exit', () => resolve());
    running.kill('SIGTERM');
  });
}

async function restartServer(): Promise<void> {
  await stopServer();
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
    if (lines.some(isListeningLine)) reloadPages();
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

/** Both builds end around the same time after a save: restart once. */
function scheduleRestart(): void {
  clearTimeout(restartTimer);
  restartTimer = setTimeout(() => void restartServer(), 80);
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

function onRebuild(name: (typeof BUILDS)[number], after?: (result: esbuild.BuildResult) => Promise<void>): esbuild.Plugin {
  return {
    name: `restart-after-${name}`,
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length > 0) {
          failing.add(name);
          process.stdout.write(`[dev] ${name} failed (above): the server keeps its last good build until every build passes\n`);
          return;
        }
        await after?.(result);
        process.stdout.write(`[dev] ${name} rebuilt\n`);
        builtOnce.add(name);
        failing.delete(name);
        if (failing.size === 0 && BUILDS.every((each) => builtOnce.has(each))) scheduleRestart();
      });
    },
  };
}

/** The client build's entry points as the route table names them: pages with the layouts around them. */
function entriesKey(entries: PageEntries): string {
  return JSON.stringify([[...entries.files], [...entries.layouts], [...entries.routes]]);
}

/** A watching client build for `entries`: started, it builds at once, then on every change. */
async function watchClient(entries: PageEntries): Promise<esbuild.BuildContext> {
  const options = clientBuildOptions(entries, { outDir: CLIENT_OUT, mode: 'development' });
  const context = await esbuild.context({
    ...options,
    plugins: [
      ...(options.plugins ?? []),
      onRebuild('client', async (result) => {
        if (result.metafile !== undefined) await writeManifest(result.metafile, CLIENT_OUT, entries);
      }),
    ],
  });
  await context.watch();
  return context;
}

await writeRouteTypes(APP_ROUTES, PROJECT);
let entries = await findPageEntries(APP_ROUTES);
await cleanClientOutput(CLIENT_OUT);
let client = await watchClient(entries);

/**
 * After a server build, which holds the route table: when its pages or layouts changed, the
 * client build starts again with the new entry points, and the server restarts only once that
 * build is written (a server whose page is missing from the manifest refuses to start).
 */
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
  builtOnce.delete('client');
  await client.dispose();
  process.stdout.write('[dev] the route table changed: building the client with its pages\n');
  client = await watchClient(entries);
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
  ).map(([name, options]) => esbuild.context({ ...options, plugins: [...(options.plugins ?? []), onRebuild(name, name === 'server' ? followRouteTable : undefined)] })),
);
await Promise.all(servers.map((server) => server.watch()));
process.stdout.write(`[dev] watching; pages reload through ${RELOAD_URL}\n`);

async function shutdown(): Promise<void> {
  await Promise.all([client.dispose(), ...servers.map((server) => server.dispose())]);
  await stopServer();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
