import { defineConfig } from 'vitest/config';
import base, { PROJECTS } from './vitest.config.ts';

/**
 * The `unit` project alone, for StrykerJS (`npm run mutation`, stryker.config.json): a mutant
 * lives in the sandbox's sources, which only the unit tests load. The browser, process and proxy
 * projects run the build, which would never see it.
 */
export default defineConfig({
  ...base,
  test: { projects: PROJECTS.filter((project) => project.test.name === 'unit') },
});
