import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineApp } from '../../server/index.ts';
import { createTestApp } from '../../server/testing/index.ts';
import { layout, NavLink, Outlet, route, useLocation } from '../../shared/index.ts';

/**
 * `<NavLink>` and `useLocation()` as the server renders them, through the public doors: the
 * document's HTML marks the current page's links with `aria-current="page"`, so the page is right
 * before any script runs (and hydration finds the same).
 */

function Menu() {
  const { pathname, search, hash } = useLocation();
  return (
    <>
      <nav>
        <NavLink id="home" href="/">
          Home
        </NavLink>
        <NavLink id="books" href="/books">
          Books
        </NavLink>
        <NavLink id="books-end" href="/books" end>
          All books
        </NavLink>
        <NavLink id="cafe" href="/books/café">
          Café
        </NavLink>
        <NavLink id="exact-case" href="/Books" caseSensitive>
          Books, as written
        </NavLink>
        <NavLink id="relative" href="2">
          The book beside
        </NavLink>
        <NavLink id="elsewhere" href="https://elsewhere.example/books">
          Elsewhere
        </NavLink>
        <NavLink id="styled" href="/books" className={({ isActive, isPending }) => `is-${isActive}-${isPending}`} style={({ isActive }) => ({ opacity: isActive ? 1 : 0.5 })}>
          {({ isActive }) => (isActive ? 'Books (here)' : 'Books (away)')}
        </NavLink>
      </nav>
      <p id="location">{JSON.stringify({ pathname, search, hash })}</p>
      <Outlet />
    </>
  );
}

function Page() {
  return <main>page</main>;
}

const page = { default: Page };
const app = defineApp({
  routes: [layout({ default: Menu }, [route('/', page), route('/books', page), route('/books/:id', page), route('/booksellers', page)], { id: 'menu' })],
});
const { app: server } = createTestApp(app);

/** The `<a>` of a link of the menu, by its id, as the server wrote it. */
async function linkOn(path: string, id: string): Promise<string> {
  const res = await request(server).get(path).expect(200);
  const link = new RegExp(`<a id="${id}"[^>]*>.*?</a>`).exec(res.text);
  if (link === null) throw new Error(`no link #${id} on ${path}`);
  return link[0];
}

describe('NavLink on the server', () => {
  test.each([
    ['/books', 'books', true],
    ['/books', 'books-end', true],
    ['/books?page=2', 'books', true],
    ['/books/7', 'books', true],
    ['/books/7', 'books-end', false],
    ['/books/', 'books', true],
    ['/booksellers', 'books', false],
    ['/', 'home', true],
    ['/books', 'home', false],
    ['/books/caf%C3%A9', 'cafe', true],
    ['/BOOKS', 'books', true],
    ['/BOOKS', 'exact-case', false],
    ['/Books', 'exact-case', true],
    ['/books/2', 'relative', true],
    ['/books/3', 'relative', false],
    ['/books', 'elsewhere', false],
  ])('on %s, #%s is the current page: %s', async (path, id, current) => {
    const link = await linkOn(path, id);
    if (current) {
      expect(link).toContain('aria-current="page"');
      expect(link).toContain('class="active"');
    } else {
      expect(link).not.toContain('aria-current');
      expect(link).not.toContain('class=');
    }
  });

  test("gives className, style and children functions the link's state", async () => {
    expect(await linkOn('/books', 'styled')).toBe('<a id="styled" aria-current="page" class="is-true-false" style="opacity:1" href="/books">Books (here)</a>');
    expect(await linkOn('/', 'styled')).toBe('<a id="styled" class="is-false-false" style="opacity:0.5" href="/books">Books (away)</a>');
  });

  test("useLocation() gives the request's path and query as the browser's address has them, and no fragment", async () => {
    const res = await request(server).get('/books/caf%C3%A9?q=a%20b').expect(200);
    const shown = /<p id="location">(.*?)<\/p>/.exec(res.text)?.[1]?.replaceAll('&quot;', '"');
    expect(JSON.parse(shown ?? 'null')).toEqual({ pathname: '/books/caf%C3%A9', search: '?q=a%20b', hash: '' });
  });
});
