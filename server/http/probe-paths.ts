/**
 * The health probes' paths (docs/deployment.md): answered by lifecycle/readiness.ts, and logged at
 * `debug` by the request logger so that probes every few seconds do not flood the log.
 */
const PROBE_PATHS = new Set(['/healthz', '/readyz']);

export function isProbePath(path: string): boolean {
  return PROBE_PATHS.has(path);
}
