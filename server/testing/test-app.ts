import type { Express } from 'express';
import type { Logger } from 'pino';
import { createApp, type AppOptions } from '../app.ts';
import { resolveApp, type AppDefinition, type Environment } from '../app-definition.ts';
import { createLogger, type AppLoggerOptions } from '../observability/logger.ts';

/** One parsed log line of an app under test. */
export type TestLogLine = Readonly<Record<string, unknown>> & { readonly level: number; readonly msg?: string };

export interface TestApp {
  /** The Express application, for supertest: `await request(app).get('/').expect(200)`. */
  readonly app: Express;
  /** Every line the app logged, parsed, in order, through the real logger (redaction included). */
  readonly logs: TestLogLine[];
  /** The app's `onStart` (its migrations), as the server awaits it before listening; nothing without one. */
  readonly start: () => Promise<void>;
  /** The app's `onClose` (its pool's end), as shutdown awaits it once drained; nothing without one. */
  readonly close: () => Promise<void>;
}

export interface TestAppOptions extends Partial<Omit<AppOptions, 'app' | 'logger'>> {
  /**
   * What the app's `settings` read, over `NODE_ENV=test` (so secrets are made for the test):
   * `{ GUESTBOOK_ADMINS: 'Grace' }` is read with `NODE_ENV=test`; give `NODE_ENV` to read it as another environment would.
   */
  readonly env?: Environment;
}

/**
 * The product's real logger (redaction included), writing every line parsed into `logs`, at debug.
 * Given an app's `logger` options, it adds their redaction and mixin, logs at their level, and
 * writes each line to their destination as well.
 */
export function createCapturingLogger(options: AppLoggerOptions = {}): { readonly logger: Logger; readonly logs: TestLogLine[] } {
  const logs: TestLogLine[] = [];
  const also = options.destination;
  const logger = createLogger({
    level: options.level ?? 'debug',
    destination: {
      write(line: string) {
        logs.push(JSON.parse(line));
        also?.write(line);
      },
    },
    app: options,
  });
  return { logger, logs };
}

/**
 * An app built from its declaration (app/app.ts) as the server builds it, without listening,
 * for the app's own tests (docs/building-an-app.md#testing-the-app). The form-token secret is
 * made for the test; pages render on the server only unless `assets` are given, and their data
 * is checked as the browser would receive it either way (page-handler.tsx), as in production.
 */
export function createTestApp<Settings>(definition: AppDefinition<Settings>, { env = {}, ...options }: TestAppOptions = {}): TestApp {
  const { logger, logs } = createCapturingLogger(definition.logger);
  const forms = { secret: 'form-token-secret-made-for-an-app-under-test' };
  const resolved = resolveApp(definition, { NODE_ENV: 'test', ...env });
  return {
    app: createApp({ app: resolved, logger, forms, ...options }),
    logs,
    start: async () => resolved.onStart?.(),
    close: async () => resolved.onClose?.(),
  };
}
