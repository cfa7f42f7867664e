import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { RouteTableError } from '../../scripts/client-build/route-table-reader.ts';
import { paramsOfPath } from '../../scripts/route-types/path-params.ts';
import { generatedHeader, routeTypeFiles } from '../../scripts/route-types/route-type-files.ts';
import { writeRouteTypes } from '../../scripts/route-types/write-route-types.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const TYPED_ROUTES = join(ROOT, 'test', 'support', 'typed-routes', 'routes.ts');

/** The generated file of each module of the typed routes' table, by the module's name. */
async function generatedByModule(): Promise<Map<string, { readonly file: string; readonly content: string }>> {
  const files = await routeTypeFiles(TYPED_ROUTES, ROOT);
  return new Map(files.map((generated) => [/\/\+types\/([\w-]+)\.ts$/.exec(generated.file)?.[1] ?? '', { ...generated, file: relative(ROOT, generated.file) }]));
}

function line(content: string, start: string): string | undefined {
  return content
    .split('\n')
    .map((each) => each.trim())
    .find((each) => each.startsWith(start));
}

describe("a path's parameters, read with path-to-regexp's parser", () => {
  test('`:name` and `*name` are always there, one inside braces (nested too) may be absent', () => {
    expect([...paramsOfPath('/flights/:from-:to')]).toEqual([
      ['from', true],
      ['to', true],
    ]);
    expect([...paramsOfPath('/files/*path')]).toEqual([['path', true]]);
    expect([...paramsOfPath('/users{/:id}')]).toEqual([['id', false]]);
    expect([...paramsOfPath('/a/:b{/:c{/*d}}')]).toEqual([
      ['b', true],
      ['c', false],
      ['d', false],
    ]);
    expect([...paramsOfPath('/')]).toEqual([]);
  });
});

describe("the route types of a table: each module's ./+types/<name>.ts, from the paths the table mounts it at", () => {
  test('a page at two paths: each parameter either path has, optional where one lacks it; its load, action and props alike', async () => {
    const book = (await generatedByModule()).get('book');
    expect(book?.file).toBe('.react-stream-shell/types/test/support/typed-routes/+types/book.ts');
    const content = book?.content ?? '';
    expect(content.split('\n')[0]).toBe(generatedHeader('test/support/typed-routes/routes.ts'));
    expect(line(content, 'export type Params =')).toBe('export type Params = { readonly id: string; readonly shelf?: string };');
    expect(line(content, 'export type LoadParams =')).toBe('export type LoadParams = { readonly id: string; readonly shelf?: string };');
    // The module's own data types its props: the generated file reads the module, beside which it lies.
    expect(content).toContain("type Module = typeof import('../book.tsx');");
    expect(line(content, 'export type PageProps =')).toBe('export type PageProps = AnyPageProps<Data, Params>;');
    expect(content).toContain("the route of '/books/:id', '/shelves/:shelf/books/:id'");
  });

  test("a layout: its component is given any of its pages' parameters, each optional; its load none", async () => {
    const content = (await generatedByModule()).get('shelf')?.content ?? '';
    expect(line(content, 'export type Params =')).toBe('export type Params = { readonly id?: string; readonly shelf?: string; readonly name?: string };');
    expect(line(content, 'export type LoadParams =')).toBe('export type LoadParams = {};');
  });

  test('an optional segment is optional, a wildcard a string, and every module of the table has its file', async () => {
    const generated = await generatedByModule();
    expect([...generated.keys()].sort()).toEqual(['author', 'book', 'file', 'shelf']);
    expect(line(generated.get('author')?.content ?? '', 'export type Params =')).toBe('export type Params = { readonly name?: string };');
    expect(line(generated.get('file')?.content ?? '', 'export type LoadParams =')).toBe('export type LoadParams = { readonly path: string };');
  });
});

/** A project of its own: a table and its modules, written by the test, the way `react-stream-shell typegen` finds them. */
describe('writing the route types into a project', () => {
  let project: string;
  const table = () => join(project, 'app', 'routes.ts');
  const typesOf = (name: string) => join(project, '.react-stream-shell', 'types', 'app', 'pages', '+types', `${name}.ts`);
  const writeTable = (routes: string) =>
    writeFile(
      table(),
      `import { route } from 'react-stream-shell';\nimport * as a from './pages/a.tsx';\nimport * as b from './pages/b.tsx';\nexport const routes = [${routes}];\n`,
    );

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'route-types-'));
    await mkdir(join(project, 'app', 'pages'), { recursive: true });
    for (const name of ['a', 'b']) await writeFile(join(project, 'app', 'pages', `${name}.tsx`), `export default function Page() { return null; }\n`);
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  test('writes a file per module, then only what changed, and removes the file of a module the table no longer names, not another table’s', async () => {
    await writeTable("route('/a/:x', a), route('/b', b)");
    const first = await writeRouteTypes(table(), project);
    expect([...first.written].sort()).toEqual([typesOf('a'), typesOf('b')]);
    expect(line(await readFile(typesOf('a'), 'utf8'), 'export type Params =')).toBe('export type Params = { readonly x: string };');

    // Nothing changed: nothing written (an editor's type checker reads nothing again).
    expect(await writeRouteTypes(table(), project)).toEqual({ written: [], removed: [] });

    // Another table's file, which this table's run leaves alone.
    const foreign = join(project, '.react-stream-shell', 'types', 'other', '+types', 'c.ts');
    await mkdir(join(foreign, '..'), { recursive: true });
    await writeFile(foreign, `${generatedHeader('other/routes.ts')}\n`);

    await writeTable("route('/a/:y', a)");
    const second = await writeRouteTypes(table(), project);
    expect(second).toEqual({ written: [typesOf('a')], removed: [typesOf('b')] });
    expect(line(await readFile(typesOf('a'), 'utf8'), 'export type Params =')).toBe('export type Params = { readonly y: string };');
    expect(await readFile(foreign, 'utf8')).toContain('other/routes.ts');
  });

  test('a table the build cannot read is refused as the build refuses it, naming the file and line', async () => {
    await writeTable("route('/a/:x?', a)");
    await expect(writeRouteTypes(table(), project)).rejects.toThrow(RouteTableError);
    await expect(writeRouteTypes(table(), project)).rejects.toThrow(/app\/routes\.ts:4: Route \/a\/:x\?: .*an optional segment is written in braces/);
  });
});
