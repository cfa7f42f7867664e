import { pino } from 'pino';
import { defineApp } from '../../server/index.ts';
import { routes } from './fixture-server-routes.tsx';

/**
 * The fixture routes with the app's own logger options, for test/process/app-logger.test.ts:
 * lines to stderr rather than stdout, a field from the mixin on each, the error's stack
 * redacted, and the level info whatever LOG_LEVEL says.
 */
export default defineApp({
  routes,
  logger: {
    level: 'info',
    redact: ['err.stack'],
    mixin: () => ({ service: 'logger-fixture' }),
    destination: pino.destination({ dest: 2, sync: true }),
  },
});
