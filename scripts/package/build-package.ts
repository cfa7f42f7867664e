import { execFileSync } from 'node:child_process';
import { cpSync, globSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * `npm run package`: the framework as an app installs it, in dist/package/, and its tarball
 * (`npm pack`) in dist/. TypeScript compiles the runtime, the build and dev tooling and the
 * command to JavaScript with declarations (tsconfig.package.json): tsc rather than a bundler,
 * because an app's build bundles these modules itself and tree-shakes them page by page, which a
 * pre-bundled file would defeat, and because tsc writes the .d.ts files the doors' types need.
 * None of the tests, the bench, the soak and compression lab tools, or the example app go in.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'dist', 'package');

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly engines: Readonly<Record<string, string>>;
  readonly exports: Readonly<Record<string, string>>;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
  /** The dependencies whose install scripts npm may run (npm's `allowScripts`). */
  readonly allowScripts?: Readonly<Record<string, boolean>>;
}

/**
 * What an app's build needs beside the server runtime's dependencies: the build and dev tooling
 * (pino-pretty prints the dev server's log; @swc/core's refresh transform and react-refresh's
 * runtime give the dev command Fast Refresh), and what the browser runtime bundles (web-vitals,
 * for the first-party metrics). Development
 * dependencies here, since the repository's own build has them installed either way.
 */
const TOOLING = ['esbuild', 'typescript', 'web-vitals', 'pino-pretty', '@swc/core', 'react-refresh'];
/** What a new app's tests and type check need (scripts/init.ts writes them into its package.json). */
const APP_DEV = ['node', 'vitest', 'supertest', '@types/supertest', '@types/node', '@types/react', '@types/react-dom', '@types/express', 'typescript'];

/** A door's target as compiled: its .js, with the .d.ts beside it for TypeScript. */
function compiledDoor(target: string): string | { readonly types: string; readonly default: string } {
  if (!/\.tsx?$/.test(target)) return target;
  const js = target.replace(/\.tsx?$/, '.js');
  return { types: js.replace(/\.js$/, '.d.ts'), default: js };
}

export function packageManifest(root: Manifest): Record<string, unknown> {
  const pick = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, root.devDependencies[name] ?? root.dependencies[name] ?? 'latest']));
  return {
    name: root.name,
    version: root.version,
    description: root.description,
    type: 'module',
    engines: root.engines,
    exports: Object.fromEntries(Object.entries(root.exports).map(([door, target]) => [door, compiledDoor(target)])),
    bin: { [root.name]: './scripts/cli.js' },
    dependencies: { ...root.dependencies, ...pick(TOOLING) },
    templateDevDependencies: pick(APP_DEV),
    // A dependency's allowScripts is npm's business only in the app's own package.json: init writes it there.
    templateAllowScripts: root.allowScripts ?? {},
  };
}

export function buildPackage(): string {
  rmSync(OUT, { recursive: true, force: true });
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.package.json')], { stdio: 'inherit' });
  // What tsc does not write: declarations written by hand, stylesheets, the template, the front matter.
  for (const file of globSync(['server/**/*.d.ts', 'shared/**/*.d.ts', 'client/**/*.d.ts', 'client/**/*.css'], { cwd: ROOT })) {
    cpSync(join(ROOT, file), join(OUT, file));
  }
  cpSync(join(ROOT, 'template'), join(OUT, 'template'), { recursive: true });
  for (const file of ['README.md', 'CHANGELOG.md']) cpSync(join(ROOT, file), join(OUT, file));
  cpSync(join(ROOT, 'docs'), join(OUT, 'docs'), { recursive: true });
  const root: Manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  writeFileSync(join(OUT, 'package.json'), `${JSON.stringify(packageManifest(root), null, 2)}\n`);
  const packed =
    execFileSync('npm', ['pack', '--silent', '--pack-destination', dirname(OUT)], { cwd: OUT, encoding: 'utf8' })
      .trim()
      .split('\n')
      .at(-1) ?? '';
  return join(dirname(OUT), packed);
}

if (import.meta.main) {
  const tarball = buildPackage();
  process.stdout.write(`packed ${relative(ROOT, tarball)}\n`);
}
