import { defineConfig } from 'vitest/config';
import base, { PROJECTS } from './vitest.config.ts';

/**
 * The `unit` project alone, for StrykerJS (`npm run mutation`, stryker.config.json): a mutant
 * lives in the sandbox's sources, which only the unit tests load. The browser, process and proxy
 * projects run the build, which would never see it.
 *
 * Left out: static-assets.test.ts, whose brotli case fails in Stryker's sandbox (its copy of a
 * built file's `.br` no longer decodes to the file) and which loads none of the mutated modules;
 * budgets.test.ts, which weighs the client bundles the unit tests' global setup builds from the
 * sandbox's sources, where a mutated module shared with the browser (the fetcher) carries every
 * one of its mutants: the weight is Stryker's, and no mutant changes what it holds.
 */
const LEFT_OUT = ['test/unit/static-assets.test.ts', 'test/unit/budgets.test.ts'];

export default defineConfig({
  ...base,
  test: {
    projects: PROJECTS.filter((project) => project.test.name === 'unit').map((project) => ({ ...project, test: { ...project.test, exclude: LEFT_OUT } })),
  },
});
