import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * The habit that keeps mutation testing worth its hour (docs/testing.md#mutation-testing): a
 * module of security or data code goes into StrykerJS's list when it lands, and the list names
 * only modules that exist, so a renamed one is not dropped from the run without a word.
 */
const ROOT = join(import.meta.dirname, '..', '..');
/** Folders whose every module is security or data code: the cross-site check, headers, addresses, sessions, actions and their bodies. */
const SECURITY_AND_DATA_FOLDERS = ['server/security', 'server/sessions', 'server/actions'];
/**
 * The client router's modules, which its unit suite (test/unit/client-router/) reaches without a
 * browser: each goes into the list as it lands. client/router.tsx, the browser's wiring, stays
 * out (docs/testing.md, "Left out").
 */
const CLIENT_ROUTER_FOLDERS = ['client/router'];

const config: { readonly mutate: readonly string[] } = JSON.parse(readFileSync(join(ROOT, 'stryker.config.json'), 'utf8'));

describe("StrykerJS's list of mutated modules", () => {
  test.each([...SECURITY_AND_DATA_FOLDERS, ...CLIENT_ROUTER_FOLDERS])('holds every module of %s', (folder) => {
    const modules = readdirSync(join(ROOT, folder))
      .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
      .map((name) => `${folder}/${name}`);
    expect(modules.length).toBeGreaterThan(0);
    expect(modules.filter((module) => !config.mutate.includes(module))).toEqual([]);
  });

  test('names only modules that exist, each once', () => {
    expect(config.mutate.filter((module) => !existsSync(join(ROOT, module)))).toEqual([]);
    expect(new Set(config.mutate).size).toBe(config.mutate.length);
  });
});
