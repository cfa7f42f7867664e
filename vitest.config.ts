import { defineConfig } from 'vitest/config';

/**
 * Projects: `unit` (vitest + supertest against createApp, no ports of its own), `browser`
 * (real Chromium against the built server), `proxy` (real nginx in front of real processes).
 * `npm test` runs them all.
 */
export default defineConfig({
  // Production JSX (`jsx`, not `jsxDEV`), matching the production React the tests load.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          // The production builds of React, as served: dev builds stream error messages and
          // stacks to the browser, which production must never do.
          env: { NODE_ENV: 'production' },
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: ['test/process/**/*.test.{ts,tsx}'],
          globalSetup: ['test/support/proxy-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.{ts,tsx}'],
          globalSetup: ['test/browser/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'proxy',
          include: ['test/proxy/**/*.test.{ts,tsx}'],
          globalSetup: ['test/support/proxy-global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
