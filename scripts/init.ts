import { cpSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

/** The framework's own package.json: the version a new app pins. */
const FRAMEWORK = resolve(import.meta.dirname, '..');
/** The files of a new app (the template folder of the package). */
const TEMPLATE = join(FRAMEWORK, 'template');

interface FrameworkManifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly templateDevDependencies?: Readonly<Record<string, string>>;
  readonly templateAllowScripts?: Readonly<Record<string, boolean>>;
}

/**
 * The new app's package.json: the framework at exactly this version (semver: a new minor or
 * major is the app's choice), React at the framework's, and what its tests and type check need.
 */
function appManifest(name: string, framework: FrameworkManifest): string {
  const pick = (names: readonly string[], from: Readonly<Record<string, string>>) => Object.fromEntries(names.map((dependency) => [dependency, from[dependency] ?? 'latest']));
  const manifest = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    engines: { node: '>=24 <25' },
    scripts: {
      build: 'react-stream-shell build',
      dev: 'react-stream-shell dev',
      start: 'react-stream-shell start',
      // The route types first: the type check reads each module's ./+types/<name>.ts.
      typecheck: 'react-stream-shell typegen && tsc --noEmit',
      test: 'react-stream-shell typegen && tsc --noEmit && vitest run',
    },
    dependencies: { [framework.name]: framework.version, ...pick(['react', 'react-dom'], framework.dependencies) },
    devDependencies: framework.templateDevDependencies ?? {},
    // The install scripts the app needs, as the framework's own package.json allows them: node's
    // places the pinned Node 24 binary, esbuild's checks its platform binary. npm warns of any other.
    allowScripts: framework.templateAllowScripts ?? {},
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Writes a new app into `folder` (made, or empty); returns the exit code, with one line on stderr for a refusal. */
export function initApp(folder: string | undefined): number {
  if (folder === undefined || folder.trim() === '') {
    process.stderr.write('react-stream-shell init: name the folder of the new app (react-stream-shell init my-app)\n');
    return 64;
  }
  const target = resolve(folder);
  if (existsSync(target) && readdirSync(target).length > 0) {
    process.stderr.write(`react-stream-shell init: ${target} is not empty; choose a new folder\n`);
    return 73;
  }
  const framework: FrameworkManifest = JSON.parse(readFileSync(join(FRAMEWORK, 'package.json'), 'utf8'));
  cpSync(TEMPLATE, target, { recursive: true });
  // npm leaves a package's .gitignore out of its tarball: the template keeps it, and its
  // .dockerignore beside it, under other names.
  renameSync(join(target, 'gitignore'), join(target, '.gitignore'));
  renameSync(join(target, 'dockerignore'), join(target, '.dockerignore'));
  writeFileSync(
    join(target, 'package.json'),
    appManifest(
      basename(target)
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, '-'),
      framework,
    ),
  );
  process.stdout.write(`made ${target}: cd ${folder} && npm install && npm start\n`);
  return 0;
}
