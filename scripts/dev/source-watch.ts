import { watch, type FSWatcher } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Saves come in bursts (an editor writes, renames, touches): one build for each burst. */
const SETTLE_MS = 15;

export interface SourceWatchOptions {
  /** The project's folder: only what lies inside it is watched (a package, the framework installed, is not edited). */
  readonly project: string;
  /** Folders inside it whose changes are the build's own (its output), never sources. */
  readonly ignore: readonly string[];
  /** The files changed in one burst of saves. */
  readonly onChange: (files: readonly string[]) => void;
}

/**
 * Watches the folders the builds read, by the operating system's notices (fs.watch, recursive),
 * so a save starts the builds at once; esbuild's own watch polls, and noticed a save up to some
 * hundreds of milliseconds late, each build on its own. Each top folder of the project a build
 * input lies in is watched once (app/, or client/ and shared/ when the framework is the project).
 */
export function createSourceWatch({ project, ignore, onChange }: SourceWatchOptions) {
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  const changed = new Set<string>();
  const noticeIn = (target: string, recursive: boolean) => (_event: string, name: string | null) => {
    changed.add(recursive && name !== null ? join(target, name) : target);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed];
      changed.clear();
      onChange(files);
    }, SETTLE_MS);
  };
  return {
    /** Watches the top folders of these files, those not watched yet. */
    follow(files: Iterable<string>): void {
      for (const file of files) {
        const inside = relative(project, file);
        if (inside.startsWith('..') || inside.split(sep).includes('node_modules')) continue;
        const [top] = inside.split(sep);
        if (top === undefined || top === '') continue;
        const target = join(project, top);
        if (watchers.has(target) || ignore.some((folder) => target === folder || target.startsWith(`${folder}${sep}`))) continue;
        const recursive = target !== file;
        const watcher = watch(target, { recursive }, noticeIn(target, recursive));
        // A folder removed while watched: its files' next build says what is missing.
        watcher.on('error', () => watchers.delete(target));
        watchers.set(target, watcher);
      }
    },
    close(): void {
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
    },
  };
}
