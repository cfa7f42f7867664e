import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { contenderOf, SCENARIOS } from '../../scripts/bench/scenarios.ts';

const BENCHMARK_DOC = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'benchmark.md'), 'utf8');

/** Every scenario `--scenarios` accepts is one the benchmark page describes, and its ratio divides by a server the scenario runs. */
describe('the bench scenarios', () => {
  test.each(SCENARIOS.map((scenario) => [scenario.id, scenario] as const))('%s has a row in the benchmark page’s scenario table', (id) => {
    expect(BENCHMARK_DOC).toContain(`| \`${id}\` |`);
  });

  test.each(SCENARIOS.map((scenario) => [scenario.id, scenario] as const))('%s compares its subject with one of its own contenders', (_id, scenario) => {
    const ids = [scenario.subject, ...scenario.others].map((participant) => contenderOf(participant).id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(1)).toContain(scenario.comparison.baseline);
  });
});
