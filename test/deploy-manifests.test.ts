import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { DEFAULTS } from '../server/config.ts';

const DEPLOY = join(import.meta.dirname, '..', 'deploy', 'k8s');

type Json = ReturnType<typeof JSON.parse>;

function documents(file: string): Json[] {
  return parseAllDocuments(readFileSync(join(DEPLOY, file), 'utf8')).map((document) => document.toJS());
}

const [deployment] = documents('deployment.yaml');
const services = documents('service.yaml');
const [budget] = documents('pod-disruption-budget.yaml');
const container = deployment.spec.template.spec.containers[0];
const env: Record<string, string> = Object.fromEntries(container.env.map((entry: { name: string; value: string }) => [entry.name, entry.value]));
const httpPort: number = container.ports.find((port: { name: string }) => port.name === 'http').containerPort;

describe('the Kubernetes manifests', () => {
  test('run several instances and roll them without losing capacity', () => {
    expect(deployment.kind).toBe('Deployment');
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
  });

  test('probe readiness and liveness on the server\'s own endpoints and port', () => {
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(httpPort).toBe(Number(env.PORT ?? DEFAULTS.port));
    expect(httpPort).toBe(DEFAULTS.port);
  });

  test('give shutdown the same timings as the server\'s defaults', () => {
    expect(Number(env.SHUTDOWN_DELAY_MS)).toBe(DEFAULTS.shutdownDelayMsProduction);
    expect(Number(env.SHUTDOWN_DEADLINE_MS)).toBe(DEFAULTS.shutdownDeadlineMs);
  });

  test('allow a termination grace period longer than pre-stop sleep, delay and deadline together', () => {
    const preStopMs = container.lifecycle.preStop.sleep.seconds * 1000;
    expect(preStopMs).toBeGreaterThan(0);
    const needed = preStopMs + Number(env.SHUTDOWN_DELAY_MS) + Number(env.SHUTDOWN_DEADLINE_MS);
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(needed);
  });

  test('request resources and run as a non-root user', () => {
    expect(container.resources.requests.cpu).toBeTruthy();
    expect(container.resources.requests.memory).toBeTruthy();
    expect(deployment.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
  });

  test('expose the app through a Service and metrics only through another', () => {
    const [publicService, metricsService] = services;
    expect(publicService.spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http' }]);
    expect(metricsService.spec.ports.map((port: { targetPort: string }) => port.targetPort)).toEqual(['metrics']);
    for (const service of services) expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
  });

  test('keep a disruption budget below the replica count', () => {
    expect(budget.kind).toBe('PodDisruptionBudget');
    expect(budget.spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
    expect(budget.spec.minAvailable).toBeLessThan(deployment.spec.replicas);
  });
});

describe('the Dockerfile', () => {
  const dockerfile = readFileSync(join(import.meta.dirname, '..', 'Dockerfile'), 'utf8');
  const instructions = dockerfile
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n');

  test('builds on Node 24 in stages, runs as non-root under an init, with node as the command', () => {
    expect(dockerfile.match(/^FROM node:24-slim/gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--"\]$/m);
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/server\/main\.js"\]$/m);
    expect(dockerfile).toMatch(/^EXPOSE (\d+)$/m);
    expect(Number(/^EXPOSE (\d+)$/m.exec(dockerfile)?.[1])).toBe(DEFAULTS.port);
    expect(dockerfile).toMatch(/HEALTHCHECK[^]*\/healthz/);
    expect(instructions).not.toMatch(/curl|wget/);
  });
});
