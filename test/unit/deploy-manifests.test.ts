import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { DEFAULTS } from '../../server/config.ts';
import { PREPARE_FLAG } from '../../server/main.ts';

const DEPLOY = join(import.meta.dirname, '..', '..', 'deploy', 'k8s');

function documents(file: string): unknown[] {
  return parseAllDocuments(readFileSync(join(DEPLOY, file), 'utf8')).map((document): unknown => document.toJS());
}

/** The value at a path of keys and indexes; a missing step fails the test with the path. */
function at(value: unknown, ...path: ReadonlyArray<string | number>): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) throw new Error(`manifest has no ${path.join('.')}`);
    current = Reflect.get(current, key);
  }
  return current;
}

function numberAt(value: unknown, ...path: ReadonlyArray<string | number>): number {
  const found = at(value, ...path);
  if (typeof found !== 'number') throw new Error(`${path.join('.')} is not a number: ${JSON.stringify(found)}`);
  return found;
}

function listAt(value: unknown, ...path: ReadonlyArray<string | number>): unknown[] {
  const found = at(value, ...path);
  if (!Array.isArray(found)) throw new Error(`${path.join('.')} is not a list`);
  return found;
}

const [deployment] = documents('deployment.yaml');
const services = documents('service.yaml');
const [budget] = documents('pod-disruption-budget.yaml');
const pod = at(deployment, 'spec', 'template', 'spec');
const container = at(pod, 'containers', 0);
const env = new Map(listAt(container, 'env').map((entry) => [String(at(entry, 'name')), String(at(entry, 'value'))]));
const envNumber = (name: string): number => Number(env.get(name));
const httpPort = listAt(container, 'ports').find((port) => at(port, 'name') === 'http');
const replicas = numberAt(deployment, 'spec', 'replicas');

describe('the Kubernetes manifests', () => {
  test('run several instances and roll them without losing capacity', () => {
    expect(at(deployment, 'kind')).toBe('Deployment');
    expect(replicas).toBeGreaterThanOrEqual(2);
    expect(at(deployment, 'spec', 'strategy', 'rollingUpdate', 'maxUnavailable')).toBe(0);
  });

  test("probe readiness and liveness on the server's own endpoints and port", () => {
    expect(at(container, 'readinessProbe', 'httpGet')).toEqual({ path: '/readyz', port: 'http' });
    expect(at(container, 'livenessProbe', 'httpGet')).toEqual({ path: '/healthz', port: 'http' });
    expect(numberAt(httpPort, 'containerPort')).toBe(envNumber('PORT'));
    expect(numberAt(httpPort, 'containerPort')).toBe(DEFAULTS.port);
  });

  test("give shutdown the same timings as the server's defaults", () => {
    expect(envNumber('SHUTDOWN_DELAY_MS')).toBe(DEFAULTS.shutdownDelayMsProduction);
    expect(envNumber('SHUTDOWN_DEADLINE_MS')).toBe(DEFAULTS.shutdownDeadlineMs);
  });

  test('take a pod out of rotation within the shutdown delay', () => {
    // Readiness fails on the first probe after SIGTERM; the delay must outlast the probe period.
    const noticedWithinMs = numberAt(container, 'readinessProbe', 'periodSeconds') * numberAt(container, 'readinessProbe', 'failureThreshold') * 1000;
    expect(noticedWithinMs).toBeLessThan(envNumber('SHUTDOWN_DELAY_MS'));
  });

  test('allow a termination grace period longer than pre-stop sleep, delay and deadline together', () => {
    const preStopMs = numberAt(container, 'lifecycle', 'preStop', 'sleep', 'seconds') * 1000;
    expect(preStopMs).toBeGreaterThan(0);
    const needed = preStopMs + envNumber('SHUTDOWN_DELAY_MS') + envNumber('SHUTDOWN_DEADLINE_MS');
    expect(numberAt(pod, 'terminationGracePeriodSeconds') * 1000).toBeGreaterThan(needed);
  });

  test.each(['CSRF_SECRET', 'SESSION_SECRET'])('take %s from a Secret, never as a value in the manifest', (name) => {
    const entry = listAt(container, 'env').find((candidate) => at(candidate, 'name') === name);
    expect(at(entry, 'valueFrom', 'secretKeyRef')).toEqual({ name: expect.any(String), key: expect.any(String) });
    expect(at(entry, 'value')).toBeUndefined();
    expect(env.get('NODE_ENV')).toBe('production');
  });

  test('take their secrets from the cluster, never made per instance', () => {
    // MAKE_MISSING_SECRETS is npm start's: with it each pod would make its own, and reject what another signed.
    expect(env.has('MAKE_MISSING_SECRETS')).toBe(false);
    const fromSecrets = listAt(container, 'env').filter((entry) => typeof Reflect.get(Object(entry), 'valueFrom') === 'object');
    expect(fromSecrets.map((entry) => at(entry, 'name'))).toEqual(expect.arrayContaining(['CSRF_SECRET', 'SESSION_SECRET']));
  });

  test("take the guest book's DATABASE_URL from the Secret when it is there, and give SQLite a writable data folder in a read-only container", () => {
    const entry = listAt(container, 'env').find((candidate) => at(candidate, 'name') === 'DATABASE_URL');
    expect(at(entry, 'valueFrom', 'secretKeyRef')).toEqual({ name: expect.any(String), key: 'database-url', optional: true });
    expect(at(container, 'securityContext', 'readOnlyRootFilesystem')).toBe(true);
    const mount = listAt(container, 'volumeMounts').find((candidate) => at(candidate, 'mountPath') === '/app/data');
    const volume = listAt(pod, 'volumes').find((candidate) => at(candidate, 'name') === at(mount, 'name'));
    expect(at(volume, 'emptyDir')).toEqual({});
  });

  test('apply the migrations in an init container before the app starts: the same image and settings, run with --prepare', () => {
    const [migrate, ...others] = listAt(pod, 'initContainers');
    expect(others).toEqual([]);
    expect(at(migrate, 'image')).toBe(at(container, 'image'));
    expect(at(migrate, 'args')).toEqual(['node', 'dist/server/main.js', PREPARE_FLAG]);
    // Every setting the app reads, secrets and DATABASE_URL included: its start reads them all.
    expect(at(migrate, 'env')).toEqual(at(container, 'env'));
    expect(at(migrate, 'securityContext', 'readOnlyRootFilesystem')).toBe(true);
  });

  test('request resources and run as a non-root user', () => {
    expect(at(container, 'resources', 'requests', 'cpu')).toBeTruthy();
    expect(at(container, 'resources', 'requests', 'memory')).toBeTruthy();
    expect(at(pod, 'securityContext', 'runAsNonRoot')).toBe(true);
  });

  test('expose the app through a Service and metrics only through another', () => {
    const [publicService, metricsService] = services;
    expect(at(publicService, 'spec', 'ports')).toEqual([{ name: 'http', port: 80, targetPort: 'http' }]);
    expect(listAt(metricsService, 'spec', 'ports').map((port) => at(port, 'targetPort'))).toEqual(['metrics']);
    for (const service of services) expect(at(service, 'spec', 'selector')).toEqual(at(deployment, 'spec', 'selector', 'matchLabels'));
  });

  test('keep a disruption budget below the replica count', () => {
    expect(at(budget, 'kind')).toBe('PodDisruptionBudget');
    expect(at(budget, 'spec', 'selector', 'matchLabels')).toEqual(at(deployment, 'spec', 'selector', 'matchLabels'));
    expect(numberAt(budget, 'spec', 'minAvailable')).toBeLessThan(replicas);
  });
});

describe('the Dockerfile', () => {
  const dockerfile = readFileSync(join(import.meta.dirname, '..', '..', 'Dockerfile'), 'utf8');
  const instructions = dockerfile
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n');

  test("is a new app's image recipe too: the template's Dockerfile runs the same instructions, but installs without a lock", () => {
    // The template's copy stands alone in each new app, so it is held to this one instead of read from it.
    const template = readFileSync(join(import.meta.dirname, '..', '..', 'template', 'Dockerfile'), 'utf8')
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('#'))
      .join('\n');
    // A new app may have no package-lock.json yet: copied if there, and `npm install` makes one where `npm ci` would refuse.
    const withoutLock = [
      ['COPY package.json package-lock.json* ./', 'COPY package.json package-lock.json ./'],
      ['RUN npm install --no-audit --no-fund', 'RUN npm ci --no-audit --no-fund'],
    ] as const;
    for (const [theirs] of withoutLock) expect(template).toContain(theirs);
    expect(withoutLock.reduce((text, [theirs, ours]) => text.replace(theirs, ours), template)).toBe(instructions);
  });

  test('sets no secret and never MAKE_MISSING_SECRETS, which is for npm start alone', () => {
    expect(instructions).not.toMatch(/MAKE_MISSING_SECRETS|CSRF_SECRET|SESSION_SECRET/);
  });

  test('builds on Node 24 in stages, runs as non-root under an init, with node as the command', () => {
    expect(dockerfile.match(/^FROM node:24-slim/gm)?.length).toBeGreaterThanOrEqual(2);
    // The server bundle carries its packages: the final stage ships the built files, no node_modules.
    const finalStage = instructions.split(/^FROM /m).at(-1) ?? '';
    expect(finalStage).toMatch(/^COPY --from=build \/app\/dist\/server /m);
    expect(finalStage).not.toMatch(/node_modules|npm ci/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--"\]$/m);
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/server\/main\.js"\]$/m);
    expect(Number(/^EXPOSE (\d+)$/m.exec(dockerfile)?.[1])).toBe(DEFAULTS.port);
    expect(dockerfile).toMatch(/HEALTHCHECK[\s\S]*\/healthz/);
    expect(instructions).not.toMatch(/curl|wget/);
  });

  test('fills the compile cache with the image’s own Node as `node`, the user that runs the server, then hands it to root', () => {
    const finalStage = instructions.split(/^FROM /m).at(-1) ?? '';
    const fill = finalStage.search(/^RUN node dist\/server\/fill-compile-cache\.js\b/m);
    expect(fill).toBeGreaterThan(finalStage.search(/^COPY --from=build \/app\/dist\/server /m));
    expect(fill).toBeGreaterThan(finalStage.search(/^USER node$/m));
    expect(finalStage.slice(fill)).toMatch(/^USER root\nRUN chown -R root:root dist\/server\/compile-cache\b/m);
  });

  test("sets glibc's mmap threshold, so the memory of a burst of compressed pages is given back", () => {
    const finalStage = instructions.split(/^FROM /m).at(-1) ?? '';
    expect(finalStage).toMatch(/^ENV [\s\S]*?\bMALLOC_MMAP_THRESHOLD_=131072\b/m);
  });

  test('keeps sources, tests, local builds and local secrets out of the build context', () => {
    const ignored = readFileSync(join(import.meta.dirname, '..', '..', '.dockerignore'), 'utf8').split('\n');
    // .react-stream-shell holds development's kept secrets beside the route types.
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', '.git', '.react-stream-shell', '.env']));
  });

  test("a new app's image recipe keeps the host's packages, builds and local secrets out of its build context too", () => {
    // scripts/init.ts writes the template's dockerignore as the app's .dockerignore.
    const ignored = readFileSync(join(import.meta.dirname, '..', '..', 'template', 'dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist', '.git', '.react-stream-shell', '.env']));
  });
});
