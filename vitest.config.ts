import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { gateForThisRun } from './test/support/system-components.ts';

/**
 * Projects: `app` (the app's own tests, under app/), `postgres` (those of them that need a real
 * PostgreSQL), `unit` (the framework's: vitest +
 * supertest against createApp, no ports of its own), `process` (the
 * built server as real processes), `browser` (real Chromium against the built server), `proxy`
 * (real nginx in front of real processes), `cluster` (the built app, two instances behind nginx
 * sharing one PostgreSQL). `npm test` runs them all.
 */
export const PROJECTS = [
  {
    extends: true,
    test: {
      // The app's own tests, beside its files (docs/building-an-app.md#testing-the-app): they
      // build the app from app/app.ts and never load the framework's fixtures.
      name: 'app',
      include: ['app/**/*.test.{ts,tsx}'],
      exclude: ['app/**/*.postgres.test.{ts,tsx}'],
      env: { NODE_ENV: 'production' },
    },
  },
  {
    extends: true,
    test: {
      // The app's tests that need a real PostgreSQL, started by the global setup in a temporary
      // data folder on a free port (test/support/postgres-server.ts); SQLite's run in `app`.
      name: 'postgres',
      include: ['app/**/*.postgres.test.{ts,tsx}'],
      globalSetup: ['test/support/postgres-global-setup.ts'],
      env: { NODE_ENV: 'production' },
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
  {
    extends: true,
    test: {
      name: 'unit',
      include: ['test/unit/**/*.test.{ts,tsx}'],
      globalSetup: ['test/support/unit-global-setup.ts'],
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
  {
    extends: true,
    test: {
      // The built app as deployed for several instances: two behind real nginx sharing the
      // global setup's real PostgreSQL. It needs both, so either one missing steps it aside.
      name: 'cluster',
      include: ['test/cluster/**/*.test.{ts,tsx}'],
      globalSetup: ['test/support/postgres-global-setup.ts'],
      testTimeout: 120_000,
      hookTimeout: 120_000,
      fileParallelism: false,
    },
  },
] as const satisfies readonly TestProjectInlineConfiguration[];

/**
 * Chromium, nginx and PostgreSQL come from the machine (test/support/system-components.ts). Deciding here,
 * before any project starts, leaves the projects that need an absent one out of the run with one
 * line each, rather than failing their global setup or skipping their tests one by one; with
 * REQUIRE_SYSTEM_COMPONENTS=1, as in CI, or a component that is there but broken, it throws.
 */
const gate = gateForThisRun(PROJECTS.map((project) => project.test.name));

export default defineConfig({
  // Production JSX (`jsx`, not `jsxDEV`), matching the production React the tests load.
  oxc: { jsx: { runtime: 'automatic', development: false } },
  test: {
    projects: PROJECTS.filter((project) => !gate.steppedAside.has(project.test.name)),
  },
});
