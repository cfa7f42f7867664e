import type { Logger } from 'pino';
import { isHttpError } from '../../shared/api/http-error.ts';

/**
 * The app's own readiness check (`defineApp({ readinessCheck })`, docs/deployment.md#the-apps-readiness):
 * whether what it needs to answer (its database) answers now.
 */
export interface AppReadinessCheck {
  /** Resolves when the app can answer; rejects (or resolves with `false`) when it cannot. Given the app's settings. */
  readonly check: () => Promise<unknown> | unknown;
  /** The check's answer is kept this long: however often `/readyz` is polled, the check runs at most once per interval. Default 1 s. */
  readonly intervalMs?: number | undefined;
  /** A check still running after this is a failure (`timed out`): a probe never waits longer. Default 1 s. */
  readonly timeoutMs?: number | undefined;
}

export const APP_READINESS_DEFAULTS = { intervalMs: 1000, timeoutMs: 1000 } as const;

/** The probe's view of the check: `undefined` when ready, else the probe's one line (the log line says why). */
export interface AppReadiness {
  notReady(): Promise<string | undefined>;
}

/**
 * What the probe's body says when the check threw. `/readyz` answers anyone who reaches it, a
 * visitor through the proxy too, and the error's message names hosts, ports and users (`connect
 * ECONNREFUSED 10.0.0.5:5432`): it goes to the log line only.
 */
const FAILED = 'readiness check failed';

/**
 * Why the check failed, in one line, without a stack (the probe's body and the log line): for
 * `serviceUnavailable(cause)`, which a store throws, its cause's message, which says why.
 */
function reasonOf(error: unknown): string {
  const said = isHttpError(error) && error.cause instanceof Error ? error.cause : error;
  const text = said instanceof Error ? said.message : String(said);
  return text.split('\n')[0] ?? '';
}

/** The probe's line for a reason: the thrown error's message left out. */
function shown(reason: string | undefined): string | undefined {
  return reason?.startsWith(`${FAILED}: `) ? FAILED : reason;
}

/**
 * Runs the app's check for `/readyz` as under-pressure's healthCheck runs one: bounded by its
 * timeout, its answer kept for an interval, and the probes that come while it runs sharing that
 * run. Each change of answer is logged once (warn when it turns, info when it comes back), not
 * each probe.
 */
export function createAppReadiness(
  { check, intervalMs = APP_READINESS_DEFAULTS.intervalMs, timeoutMs = APP_READINESS_DEFAULTS.timeoutMs }: AppReadinessCheck,
  logger: Logger,
  now: () => number = Date.now,
): AppReadiness {
  let kept: { readonly at: number; readonly reason: string | undefined } | undefined;
  let running: Promise<string | undefined> | undefined;

  /** Why the app is not ready, as the log line says it; `undefined` when it is. */
  async function runCheck(): Promise<string | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`readiness check timed out after ${timeoutMs} ms`), timeoutMs);
    });
    const checked = (async () => {
      try {
        return (await check()) === false ? FAILED : undefined;
      } catch (error) {
        return `${FAILED}: ${reasonOf(error)}`;
      }
    })();
    try {
      return await Promise.race([checked, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    notReady() {
      if (kept !== undefined && now() - kept.at < intervalMs) return Promise.resolve(shown(kept.reason));
      running ??= runCheck().then((reason) => {
        if (reason !== kept?.reason) {
          if (reason === undefined) logger.info('app ready again: readiness check passed');
          else logger.warn({ reason }, 'app not ready: /readyz answers 503');
        }
        kept = { at: now(), reason };
        running = undefined;
        return reason;
      });
      return running.then(shown);
    },
  };
}
