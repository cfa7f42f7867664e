import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The programs some test suites need from the machine rather than from npm: the tests never
 * download a browser or a proxy. A fresh machine with only Node and npm runs everything else and
 * says which suites stepped aside; `REQUIRE_SYSTEM_COMPONENTS=1` (what .ci/run sets) turns a
 * missing component into a failure, so CI never skips. A component that is there but does not
 * run always fails: stepping aside is for machines without it, not for broken installs.
 */

export type Env = Readonly<Record<string, string | undefined>>;

export interface SystemComponent {
  /** As people write it in messages. */
  readonly label: string;
  readonly defaultPath: string;
  /** Names another path to the executable, for machines that keep it elsewhere. */
  readonly pathVariable: string;
  /** The vitest projects (vitest.config.ts) that cannot run without it. */
  readonly projects: readonly string[];
  readonly install: string;
  /** Arguments that make it print its version and exit: proof that it starts at all. */
  readonly versionArgs: readonly string[];
}

export const CHROMIUM: SystemComponent = {
  label: 'Chromium',
  defaultPath: '/usr/bin/chromium',
  pathVariable: 'CHROMIUM_PATH',
  projects: ['browser'],
  install: 'apt-get install -y chromium',
  versionArgs: ['--version'],
};

export const NGINX: SystemComponent = {
  label: 'nginx',
  defaultPath: '/usr/sbin/nginx',
  pathVariable: 'NGINX_PATH',
  projects: ['proxy', 'cluster'],
  install: 'apt-get install -y nginx',
  versionArgs: ['-v'],
};

/** Debian's server binaries live under their major version: the newest one installed, else 15's path to name. */
function debianPostgres(root = '/usr/lib/postgresql'): string {
  let versions: string[] = [];
  try {
    versions = readdirSync(root).filter((name) => /^\d+$/.test(name));
  } catch {
    versions = [];
  }
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0] ?? '15';
  return join(root, newest, 'bin', 'postgres');
}

/** PostgreSQL's server, which the postgres suite starts in a temporary data folder (initdb beside it). */
export const POSTGRESQL: SystemComponent = {
  label: 'PostgreSQL',
  defaultPath: debianPostgres(),
  pathVariable: 'POSTGRES_PATH',
  projects: ['postgres', 'cluster'],
  install: 'apt-get install -y postgresql',
  versionArgs: ['--version'],
};

export const SYSTEM_COMPONENTS: readonly SystemComponent[] = [CHROMIUM, NGINX, POSTGRESQL];

/** Set to 1, a missing component fails the run instead of stepping its suites aside. */
export const REQUIRE_SWITCH = 'REQUIRE_SYSTEM_COMPONENTS';

/** Why the run cannot go on: a required component is missing, or one that is there is broken. */
export class SystemComponentError extends Error {
  override name = 'SystemComponentError';
}

/** Where the tests look for the component: the override variable if set, else Debian's path. */
export function componentPath(component: SystemComponent, env: Env = process.env): string {
  const override = env[component.pathVariable];
  return override === undefined || override === '' ? component.defaultPath : override;
}

/**
 * How every Chromium here starts (Playwright's and Lighthouse's): no sandbox (root in CI), and
 * nothing that reaches out to the network on its own, which this machine's closed network
 * would refuse many times a second.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--no-first-run',
];

export function chromiumPath(env: Env = process.env): string {
  return componentPath(CHROMIUM, env);
}

export function nginxPath(env: Env = process.env): string {
  return componentPath(NGINX, env);
}

export function postgresPath(env: Env = process.env): string {
  return componentPath(POSTGRESQL, env);
}

/** Present: a file exists at the path and may be executed. */
export function isPresent(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Reads the switch strictly: a value like `yes` or `true` that quietly meant "off" would let CI
 * skip suites while looking as if it required them.
 */
export function requiresSystemComponents(env: Env = process.env): boolean {
  const value = env[REQUIRE_SWITCH];
  if (value === undefined || value === '' || value === '0') return false;
  if (value === '1') return true;
  throw new SystemComponentError(`${REQUIRE_SWITCH} must be 1 or 0, not "${value}"`);
}

/** What to do about a component: set the variable, or install it. */
function remedy(component: SystemComponent): string {
  return `set ${component.pathVariable}, or install it: ${component.install}`;
}

/** The single line printed when a component's suites step aside. */
export function steppedAsideLine(component: SystemComponent, path: string): string {
  const suites = `${component.projects.join(', ')} suite${component.projects.length === 1 ? '' : 's'}`;
  return `${suites} stepped aside: ${component.label} not found at ${path} (${remedy(component)})`;
}

/**
 * Runs the component's version command and returns what is wrong with it, or undefined when it
 * starts, exits 0 and prints a version. A file that merely exists (a stub, a half-removed
 * package, a library missing) would otherwise only fail deep inside a suite, or not at all.
 */
export function whyItDoesNotRun(component: SystemComponent, path: string): string | undefined {
  const command = [path, ...component.versionArgs].join(' ');
  // Chromium's first start on a cold, busy machine can take seconds; a hang must still end.
  const result = spawnSync(path, component.versionArgs, { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  // The last lines are where a missing library or a crash shows; the rest is noise here.
  const lastLines = output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(-3)
    .join(' | ');
  const said = lastLines === '' ? '' : ` (it said: ${lastLines})`;
  if (result.error !== undefined) return `\`${command}\` could not run (${result.error.message})`;
  if (result.signal !== null) return `\`${command}\` was killed by ${result.signal}${said}`;
  if (result.status !== 0) return `\`${command}\` exited with code ${result.status}${said}`;
  // nginx prints its version on stderr, Chromium on stdout: either will do.
  if (!/\d+\.\d+/.test(output)) return `\`${command}\` printed no version${said}`;
  return undefined;
}

export interface GateOutcome {
  /** Projects to leave out of the run, their component being absent. */
  readonly steppedAside: ReadonlySet<string>;
  /** One line per absent component, for the person reading the run's output. */
  readonly lines: readonly string[];
}

/**
 * Decides which projects run. Throws SystemComponentError when a component that is there does
 * not run, when one is missing and the switch requires it, and when a component names a
 * project the config no longer has (a renamed project would otherwise never be gated). Every
 * such problem at once: a fresh CI machine missing both should not be fixed one run at a time.
 */
export function gateSystemComponents(projectNames: readonly string[], env: Env = process.env): GateOutcome {
  const required = requiresSystemComponents(env);
  const steppedAside = new Set<string>();
  const lines: string[] = [];
  const failures: string[] = [];
  for (const component of SYSTEM_COMPONENTS) {
    const unknown = component.projects.filter((project) => !projectNames.includes(project));
    if (unknown.length > 0) failures.push(`${component.label} is needed by project(s) ${unknown.join(', ')}, which vitest.config.ts does not define`);
    const path = componentPath(component, env);
    if (isPresent(path)) {
      const problem = whyItDoesNotRun(component, path);
      if (problem !== undefined)
        failures.push(`${component.label} at ${path} is there but does not run: ${problem}; repair it (${component.install}) or point ${component.pathVariable} at one that works`);
    } else if (existsSync(path)) {
      // Something that is not an executable file: a wrong override, a broken install. Not absent.
      failures.push(`${component.label} at ${path} is not an executable file (${remedy(component)})`);
    } else if (required) {
      failures.push(`${component.label} not found at ${path}, and ${REQUIRE_SWITCH}=1 requires it (${remedy(component)})`);
    } else {
      for (const project of component.projects) steppedAside.add(project);
      lines.push(steppedAsideLine(component, path));
    }
  }
  if (failures.length > 0) throw new SystemComponentError(failures.join('\n'));
  return { steppedAside, lines };
}

/** Where the outcome waits for the config's next evaluation in the same process. */
const OUTCOME = Symbol.for('react-stream-shell.system-components');

/**
 * The gate as vitest.config.ts uses it: decided and printed once per process. Vitest evaluates
 * the config once for the run and again for every project that `extends` it, all in one process;
 * a module-level variable would not survive that (each evaluation is a fresh module), a global does.
 */
export function gateForThisRun(projectNames: readonly string[]): GateOutcome {
  const store = globalThis as typeof globalThis & { [OUTCOME]?: GateOutcome };
  const decided = store[OUTCOME];
  if (decided !== undefined) return decided;
  const outcome = gateSystemComponents(projectNames);
  for (const line of outcome.lines) console.warn(line);
  store[OUTCOME] = outcome;
  return outcome;
}
