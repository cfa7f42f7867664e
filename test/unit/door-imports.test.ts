import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, describe, expect, test } from 'vitest';
import { readDoor, withDirectImports } from '../../scripts/client-build/door-imports.ts';

/**
 * The client build imports each public name from the module that defines it
 * (scripts/client-build/door-imports.ts), so a page's chunk holds only what it names.
 */

const SHARED = resolve(import.meta.dirname, '..', '..', 'shared');
const door = readDoor(join(SHARED, 'index.ts'));

describe('imports of the main door in the client build', () => {
  test('each name is read from the door with the module that defines it, types included', () => {
    expect(door.get('Link')).toBe(join(SHARED, 'api', 'link.tsx'));
    expect(door.get('useFetcher')).toBe(join(SHARED, 'api', 'fetcher.tsx'));
    expect(door.get('PageProps')).toBe(join(SHARED, 'api', 'route-definition.ts'));
  });

  test('an import of several names becomes one import per defining module, on the same lines', () => {
    const text = "import {\n  Link,\n  type PageProps,\n  useFetcher as useIt,\n} from 'react-stream-shell';\nexport const x = 1;\n";
    const out = withDirectImports(text, door) ?? '';
    expect(out.split('\n')).toHaveLength(text.split('\n').length);
    expect(out).toContain(`import { Link } from ${JSON.stringify(join(SHARED, 'api', 'link.tsx'))};`);
    // A type needs no module: it is left out, as esbuild would erase it.
    expect(out).not.toContain('PageProps');
    expect(out).toContain(`import { useFetcher as useIt } from ${JSON.stringify(join(SHARED, 'api', 'fetcher.tsx'))};`);
    expect(out).not.toContain("'react-stream-shell'");
    expect(out.split('\n')[5]).toBe('export const x = 1;');
  });

  test('a type-only import of the door goes, its lines kept', () => {
    expect(withDirectImports("import type {\n  PageProps,\n} from 'react-stream-shell';\nexport {};\n", door)).toBe('\n\n\nexport {};\n');
  });

  test('a module without the door, or naming what the door lacks, is left as written', () => {
    expect(withDirectImports("import { useState } from 'react';\n", door)).toBeUndefined();
    expect(withDirectImports("import { nothingLikeThis } from 'react-stream-shell';\n", door)).toBeUndefined();
  });

  describe('in a split build of two pages', () => {
    const dir = mkdtempSync(join(tmpdir(), 'door-imports-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /** The chunks each page loads, as esbuild's metafile says, with the door rewritten or not. */
    async function inputsOfPlain(rewrite: boolean): Promise<string[]> {
      writeFileSync(join(dir, 'plain.tsx'), "import { Link } from 'react-stream-shell';\nexport default () => <Link href='/'>x</Link>;\n");
      writeFileSync(
        join(dir, 'fetching.tsx'),
        "import { Link, useFetcher } from 'react-stream-shell';\nexport default () => { const f = useFetcher(); return <Link href={String(f.state)}>x</Link>; };\n",
      );
      const plugin: esbuild.Plugin = {
        name: 'door',
        setup(build) {
          build.onResolve({ filter: /^react-stream-shell$/ }, () => ({ path: join(SHARED, 'index.ts') }));
          build.onLoad({ filter: /door-imports-.*\.tsx$/ }, async (args) => {
            const { readFile } = await import('node:fs/promises');
            const text = await readFile(args.path, 'utf8');
            return { contents: (rewrite ? withDirectImports(text, door) : undefined) ?? text, loader: 'tsx' };
          });
        },
      };
      const result = await esbuild.build({
        entryPoints: { plain: join(dir, 'plain.tsx'), fetching: join(dir, 'fetching.tsx') },
        bundle: true,
        splitting: true,
        format: 'esm',
        outdir: join(dir, rewrite ? 'out-direct' : 'out-door'),
        jsx: 'automatic',
        metafile: true,
        write: false,
        logLevel: 'silent',
        plugins: [plugin],
        // Only the framework's own modules are of interest: React and the rest stay out.
        packages: 'external',
      });
      const { outputs } = result.metafile;
      const plainOut = Object.keys(outputs).find((name) => outputs[name]?.entryPoint?.endsWith('plain.tsx')) ?? '';
      const loaded = new Set([plainOut]);
      for (const name of loaded) for (const imported of outputs[name]?.imports ?? []) if (imported.kind === 'import-statement') loaded.add(imported.path);
      return [...loaded].flatMap((name) => Object.keys(outputs[name]?.inputs ?? {}));
    }

    test('the page that names only Link loads no fetcher code; through the door it would', async () => {
      expect((await inputsOfPlain(true)).some((input) => input.endsWith('shared/api/fetcher.tsx'))).toBe(false);
      expect((await inputsOfPlain(false)).some((input) => input.endsWith('shared/api/fetcher.tsx'))).toBe(true);
    });
  });
});
