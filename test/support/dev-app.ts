import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, LOOPBACK } from '../../scripts/lib/loopback.ts';

const ROOT = join(import.meta.dirname, '..', '..');
/** The small app the dev-loop tests and benchmark copy and edit. */
const FIXTURE_APP = join(import.meta.dirname, 'dev-app', 'app');

export interface DevApp {
  /** The app's folder: the dev command's project. */
  readonly dir: string;
  readonly origin: string;
  /** What the dev command has printed so far. */
  readonly output: () => string;
  /** Replaces `from` (it must be there) in the app's file `path` (from the app's folder) and saves it. */
  readonly edit: (path: string, from: string | RegExp, to: string) => Promise<void>;
  /** Writes back the fixture's text of every file `edit` changed: the next test starts from the app as copied. */
  readonly reset: () => Promise<void>;
  /** Once the command has been quiet a while (the saves' rounds done) and its server answers. */
  readonly settled: () => Promise<void>;
  readonly stop: () => Promise<number | null>;
}

/** Where in `output`, after `from`, the dev command said it noticed a save of `file` ("[dev] saved a, b"), or -1. */
function noticeOf(output: string, file: string, from: number): number {
  for (let at = output.indexOf('\n[dev] saved ', Math.max(0, from - 1)); at !== -1; at = output.indexOf('\n[dev] saved ', at + 1)) {
    const end = output.indexOf('\n', at + 1);
    if (
      end !== -1 &&
      output
        .slice(at + '\n[dev] saved '.length, end)
        .split(', ')
        .includes(file)
    )
      return end;
  }
  return -1;
}

/**
 * Copies the fixture app into a new folder and runs the dev command there, as `react-stream-shell
 * dev` would in an app of its own, until it listens. The folder lies under the repository's
 * git-ignored dist/, so the app's imports of react-stream-shell name the framework by its own
 * package.json (a package refers to itself by name), and React is the one the framework uses;
 * the repository's app/ is never touched.
 */
export async function startDevApp(): Promise<DevApp> {
  await mkdir(join(ROOT, 'dist'), { recursive: true });
  const dir = await mkdtemp(join(ROOT, 'dist', 'dev-app-'));
  await cp(FIXTURE_APP, join(dir, 'app'), { recursive: true });
  const [port, reloadPort] = [await freePort(), await freePort()];
  const dev = spawn(process.execPath, [join(ROOT, 'scripts', 'dev.ts')], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), HOST: LOOPBACK, DEV_RELOAD_PORT: String(reloadPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => dev.once('exit', (code) => resolve(code)));
  let output = '';
  dev.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  dev.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!output.includes('INFO: listening')) {
    if (Date.now() > deadline || dev.exitCode !== null) {
      dev.kill('SIGTERM');
      throw new Error(`the dev command did not listen within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const edited = new Set<string>();
  /** Each file written since `settled` last returned, with where the output stood at its last write: `settled` waits for their rounds. */
  let written = new Map<string, number>();
  const wrote = (path: string) => written.set(`app/${path}`, output.length);
  return {
    dir,
    origin: `http://${LOOPBACK}:${port}`,
    output: () => output,
    async edit(path, from, to) {
      const file = join(dir, 'app', path);
      edited.add(path);
      const text = await readFile(file, 'utf8');
      const next = text.replace(from, to);
      if (next === text) throw new Error(`${path} holds no ${String(from)}`);
      wrote(path);
      await writeFile(file, next);
    },
    async reset() {
      for (const path of edited) {
        const [original, now] = await Promise.all([readFile(join(FIXTURE_APP, path), 'utf8'), readFile(join(dir, 'app', path), 'utf8')]);
        if (now === original) continue;
        wrote(path);
        await writeFile(join(dir, 'app', path), original);
      }
      edited.clear();
    },
    async settled() {
      // Quiet output is no proof: under load a save can take longer to be noticed, or a build
      // longer to finish, than any quiet spell. The command says when it is done: each save it
      // noticed ("[dev] saved …"), and "[dev] ready" once nothing is left to build or restart.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const notices = [...written].map(([file, at]) => noticeOf(output, file, at));
        const lastNotice = Math.max(0, ...notices);
        const ready = !notices.includes(-1) && output.indexOf('\n[dev] ready', lastNotice) !== -1;
        if (
          ready &&
          (await fetch(`http://${LOOPBACK}:${port}/`).then(
            (res) => res.ok,
            () => false,
          ))
        ) {
          written = new Map();
          return;
        }
        if (Date.now() > deadline) throw new Error(`the dev command did not settle within 30 s:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      dev.kill('SIGTERM');
      const code = await exited;
      await rm(dir, { recursive: true, force: true });
      return code;
    },
  };
}
