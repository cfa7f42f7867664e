import { defineApp } from '../../server/index.ts';
import { routes } from './fixture-server-routes.tsx';

/**
 * The fixture routes with the app's lifecycle hooks, for test/process/app-hooks.test.ts: an
 * onStart that takes a moment (and fails with HOOKS_FAIL_START=1, as a migration would), and an
 * onClose that takes a moment (and fails with HOOKS_FAIL_CLOSE=1, as a pool's end could).
 */
export default defineApp({
  routes,
  settings: (env) => ({ failStart: env.HOOKS_FAIL_START === '1', failClose: env.HOOKS_FAIL_CLOSE === '1' }),
  onStart: async ({ failStart }) => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (failStart) throw new Error('migration 0002-fixture failed: relation "entries" already exists');
  },
  onClose: async ({ failClose }) => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (failClose) throw new Error('fixture: the pool would not end');
  },
});
