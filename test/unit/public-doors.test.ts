import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * The package's doors (package.json's `exports`, docs/api.md) are the only way into the
 * framework: the example app and the docs' snippets import nothing else of it, so an app
 * written from either never reaches a private module.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const manifest: { name: string; exports: Record<string, string>; dependencies: Record<string, string>; devDependencies: Record<string, string> } = JSON.parse(
  readFileSync(join(ROOT, 'package.json'), 'utf8'),
);
const DOORS = new Set(Object.keys(manifest.exports).map((door) => (door === '.' ? manifest.name : `${manifest.name}/${door.slice(2)}`)));
const PACKAGES = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every module a text imports: static, side-effect, dynamic and re-exports, and the modules it augments. */
function specifiers(text: string): string[] {
  const found = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|declare module\s+)'([^']+)'/g)].map((match) => match[1] ?? '');
  return found.filter((specifier) => specifier !== '');
}

/** The package a bare specifier names (`react-dom/client` → `react-dom`, `@scope/x/y` → `@scope/x`). */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
}

/** What is wrong with one import of an app's module, or `undefined` when it is allowed. */
function fault(file: string, specifier: string, appDir: string): string | undefined {
  if (specifier.startsWith('.')) {
    const target = resolve(dirname(file), specifier);
    return target.startsWith(`${appDir}/`) ? undefined : `reaches ${relative(ROOT, target)} outside the app`;
  }
  if (specifier.startsWith('node:') || builtinModules.includes(specifier)) return undefined;
  if (packageOf(specifier) === manifest.name) return DOORS.has(specifier) ? undefined : `${specifier} is no door of the package`;
  return PACKAGES.has(packageOf(specifier)) ? undefined : `${specifier} is no dependency`;
}

describe("the package's doors", () => {
  test('package.json names the doors, and each leads to a module', () => {
    expect([...DOORS]).toEqual(['react-stream-shell', 'react-stream-shell/server', 'react-stream-shell/testing', 'react-stream-shell/package.json']);
    for (const target of Object.values(manifest.exports)) expect(() => readFileSync(join(ROOT, target))).not.toThrow();
  });

  test('the example app imports the framework through its doors only, and augments AppLoadContext through the main door', () => {
    const appDir = join(ROOT, 'app');
    const faults = sourceFiles(appDir).flatMap((file) =>
      specifiers(readFileSync(file, 'utf8')).flatMap((specifier) => {
        const wrong = fault(file, specifier, appDir);
        return wrong === undefined ? [] : [`${relative(ROOT, file)}: ${specifier}: ${wrong}`];
      }),
    );
    expect(faults).toEqual([]);
    expect(readFileSync(join(appDir, 'context.ts'), 'utf8')).toContain("declare module 'react-stream-shell' {");
  });

  test("the template's app imports the framework through its doors only", () => {
    const templateApp = join(ROOT, 'template', 'app');
    const faults = sourceFiles(templateApp).flatMap((file) =>
      specifiers(readFileSync(file, 'utf8')).flatMap((specifier) => {
        const wrong = fault(file, specifier, templateApp);
        return wrong === undefined ? [] : [`${relative(ROOT, file)}: ${specifier}: ${wrong}`];
      }),
    );
    expect(faults).toEqual([]);
  });

  test("the docs' snippets import the framework through its doors only", () => {
    const pages = [join(ROOT, 'README.md'), ...readdirSync(join(ROOT, 'docs')).map((name) => join(ROOT, 'docs', name))].filter((path) => path.endsWith('.md'));
    const faults = pages.flatMap((page) => {
      const blocks = [...readFileSync(page, 'utf8').matchAll(/```(?:ts|tsx)\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
      return blocks.flatMap(specifiers).flatMap((specifier) => {
        if (/(?:^|\/)(?:shared|server|client)\//.test(specifier) && specifier.startsWith('.')) return [`${relative(ROOT, page)}: ${specifier} reaches a private module`];
        if (packageOf(specifier) === manifest.name && !DOORS.has(specifier)) return [`${relative(ROOT, page)}: ${specifier} is no door`];
        return [];
      });
    });
    expect(faults).toEqual([]);
  });

  test('no framework file imports an app: the server bundle for an app is made by the build', () => {
    const appDir = join(ROOT, 'app');
    const framework = ['server', 'client', 'shared', join('scripts', 'client-build'), join('scripts', 'lib')].flatMap((dir) => sourceFiles(join(ROOT, dir)));
    const scripts = readdirSync(join(ROOT, 'scripts'))
      .filter((name) => /\.tsx?$/.test(name))
      .map((name) => join(ROOT, 'scripts', name));
    const reaching = [...framework, ...scripts].flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((specifier) => specifier.startsWith('.') && resolve(dirname(file), specifier).startsWith(`${appDir}/`))
        .map((specifier) => `${relative(ROOT, file)}: ${specifier}`),
    );
    expect(reaching).toEqual([]);
  });

  test('the rule sees a private import: a relative path into server/ and a deep import of the package are faults', () => {
    const appDir = join(ROOT, 'app');
    expect(fault(join(appDir, 'pages', 'x.tsx'), '../../server/app.ts', appDir)).toBe('reaches server/app.ts outside the app');
    expect(fault(join(appDir, 'x.ts'), 'react-stream-shell/server/app.ts', appDir)).toBe('react-stream-shell/server/app.ts is no door of the package');
    expect(fault(join(appDir, 'x.ts'), 'left-pad', appDir)).toBe('left-pad is no dependency');
    expect(fault(join(appDir, 'x.ts'), 'react-stream-shell/testing', appDir)).toBeUndefined();
  });
});
