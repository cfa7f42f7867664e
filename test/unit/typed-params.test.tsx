import request from 'supertest';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { defineApp } from '../../server/app-definition.ts';
import { createTestApp } from '../../server/testing/test-app.ts';
import { useParams } from '../../shared/api/route-hooks.tsx';
import type { Route as AuthorRoute } from '../support/typed-routes/+types/author.ts';
import type { Route as BookRoute } from '../support/typed-routes/+types/book.ts';
import type { Route as FileRoute } from '../support/typed-routes/+types/file.ts';
import type { Route as ShelfRoute } from '../support/typed-routes/+types/shelf.ts';
import { routes } from '../support/typed-routes/routes.ts';

/**
 * Path parameters typed from the route table (docs/building-an-app.md#typed-path-parameters):
 * the table in test/support/typed-routes/ mounts `book.tsx` at `/books/:id` and
 * `/shelves/:shelf/books/:id` inside the `shelf.tsx` layout, `author.tsx` at `/authors{/:name}`
 * inside it too, and `file.ts` at `/files/*path`; `npm run typegen` writes each module's
 * `./+types/` file, which this file's types read. `tsc -p test` checks the types (the
 * `@ts-expect-error` lines fail it when the reading they mark compiles); vitest the answers.
 */
const app = defineApp({ routes });

describe('typed path parameters, on the wire', () => {
  test("a page at two paths gets each path's parameters in load, head, props and useParams; its layout's component the page's, its layout's load none", async () => {
    const { app: server } = createTestApp(app);
    const plain = (await request(server).get('/books/b1').expect(200)).text.replaceAll('<!-- -->', '');
    expect(plain).toContain('<title>Book B1 at b1 on no shelf');
    expect(plain).toContain('Book B1 on shelf none, hook id b1, prop id b1');
    expect(plain).toContain('layout load saw none; id b1, shelf -, name -');

    const shelved = (await request(server).get('/shelves/s2/books/b3').expect(200)).text.replaceAll('<!-- -->', '');
    expect(shelved).toContain('<title>Book B3 at b3 on s2');
    expect(shelved).toContain('Book B3 on shelf s2, hook id b3, prop id b3');
    expect(shelved).toContain('layout load saw none; id b3, shelf s2, name -');
  });

  test("an action gets its path's parameters; an optional segment is absent or there; a wildcard is its segments joined by /", async () => {
    const { app: server } = createTestApp(app);
    const posted = await request(server).post('/shelves/s2/books/b3').set('Sec-Fetch-Site', 'same-origin').type('form').send({ note: 'read' }).expect(200);
    expect(posted.text.replaceAll('<!-- -->', '')).toContain('; saved b3: read');
    expect((await request(server).get('/authors').expect(200)).text.replaceAll('<!-- -->', '')).toContain('Author anonymous');
    const named = (await request(server).get('/authors/ann').expect(200)).text.replaceAll('<!-- -->', '');
    expect(named).toContain('Author ann');
    expect(named).toContain('layout load saw none; id -, shelf -, name ann');
    expect((await request(server).get('/files/a/b/c.txt').expect(200)).body).toEqual({ path: 'a/b/c.txt' });
  });
});

describe('typed path parameters, checked against the table by the type check', () => {
  test("a module's Route types hold the parameters of the paths it is mounted at", () => {
    expectTypeOf<BookRoute.Params>().toEqualTypeOf<{ readonly id: string; readonly shelf?: string }>();
    expectTypeOf<BookRoute.LoadContext['params']>().toEqualTypeOf<{ readonly id: string; readonly shelf?: string }>();
    expectTypeOf<BookRoute.ActionContext['params']>().toEqualTypeOf<{ readonly id: string; readonly shelf?: string }>();
    expectTypeOf<BookRoute.PageProps['params']>().toEqualTypeOf<{ readonly id: string; readonly shelf?: string }>();
    // The props' data is the module's load's, without writing it.
    expectTypeOf<BookRoute.PageProps['data']>().toEqualTypeOf<{ title: string; shelf: string }>();
    expectTypeOf<AuthorRoute.Params>().toEqualTypeOf<{ readonly name?: string }>();
    expectTypeOf<FileRoute.LoadContext['params']>().toEqualTypeOf<{ readonly path: string }>();
    // A layout: its component sees any of its pages' parameters, its load none.
    expectTypeOf<ShelfRoute.Params>().toEqualTypeOf<{ readonly id?: string; readonly shelf?: string; readonly name?: string }>();
    // biome-ignore lint/complexity/noBannedTypes: the empty object type is exactly what a layout's load is given
    expectTypeOf<ShelfRoute.LoadContext['params']>().toEqualTypeOf<{}>();
  });

  test('reading a parameter no path of the module has does not compile, in load, action, props, head or useParams', () => {
    // Never called: what matters is that tsc refuses each marked line.
    const readers = [
      // @ts-expect-error: neither /books/:id nor /shelves/:shelf/books/:id has :slug
      ({ params }: BookRoute.LoadContext) => params.slug,
      // @ts-expect-error: the action's path has no :page
      ({ params }: BookRoute.ActionContext) => params.page,
      // @ts-expect-error: /authors{/:name} has no :id
      ({ params }: AuthorRoute.PageProps) => params.id,
      // @ts-expect-error: a layout's load is given no parameters, not even its pages' :id
      ({ params }: ShelfRoute.LoadContext) => params.id,
      // @ts-expect-error: /files/*path names its wildcard path, not rest
      ({ params }: FileRoute.LoadContext) => params.rest,
      // @ts-expect-error: the hook typed by the module's Route.Params
      () => useParams<AuthorRoute.Params>().shelf,
      // @ts-expect-error: a parameter that may be absent is not a plain string
      ({ params }: AuthorRoute.LoadContext): string => params.name,
    ];
    expect(readers).toHaveLength(7);
  });
});
