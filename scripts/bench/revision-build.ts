import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../build-client.ts';

/** The fixture build of another revision, in a worktree of its own that `remove()` deletes. */
export interface RevisionBuild {
  /** The full commit the revision names. */
  readonly commit: string;
  /** Its fixture server's bundled entry. */
  readonly fixtureEntry: string;
  remove(): void;
}

function git(args: readonly string[], cwd = ROOT): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Builds the revision's bench with its own scripts (build-bench.ts) and this Node; prints the entry. */
const BUILD_IN_WORKTREE = `
const { buildBench } = await import(process.argv[1]);
const build = await buildBench();
process.stdout.write('\\n' + JSON.stringify({ fixtureEntry: build.fixtureEntry }) + '\\n');
`;

/**
 * Checks `revision` out into a temporary worktree and builds its bench there, with its own build
 * scripts, so that the comparison holds two builds made the way each revision makes them. Its
 * `node_modules` is this checkout's when both lock files are the same, else installed from its
 * own lock file.
 */
export function buildRevision(revision: string, progress: (line: string) => void): RevisionBuild {
  const commit = git(['rev-parse', '--verify', `${revision}^{commit}`]);
  const worktree = mkdtempSync(join(tmpdir(), `bench-compare-${commit.slice(0, 7)}-`));
  git(['worktree', 'add', '--detach', '--force', worktree, commit]);
  function remove(): void {
    process.off('exit', remove);
    rmSync(worktree, { recursive: true, force: true });
    git(['worktree', 'prune']);
  }
  // However the comparison ends (Ctrl-C included, which exits from child-registry.ts), the
  // worktree goes with it: both calls are synchronous, as an 'exit' listener needs.
  process.once('exit', remove);
  try {
    const script = join(worktree, 'scripts', 'bench', 'build-bench.ts');
    if (!existsSync(script)) throw new Error(`${revision} (${commit.slice(0, 7)}) has no scripts/bench/build-bench.ts to build its bench with`);
    if (readFileSync(join(worktree, 'package-lock.json'), 'utf8') === readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) {
      symlinkSync(join(ROOT, 'node_modules'), join(worktree, 'node_modules'), 'dir');
    } else {
      progress(`installing ${commit.slice(0, 7)}'s dependencies (its lock file differs)`);
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: worktree, stdio: ['ignore', 'ignore', 'inherit'] });
    }
    progress(`building ${commit.slice(0, 7)}'s bench in ${worktree}`);
    const built = spawnSync(process.execPath, ['--input-type=module', '-e', BUILD_IN_WORKTREE, script], { cwd: worktree, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`building ${commit.slice(0, 7)}'s bench failed:\n${built.stderr}`);
    const { fixtureEntry } = JSON.parse(built.stdout.trim().split('\n').at(-1) ?? '') as { fixtureEntry: string };
    return { commit, fixtureEntry, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
