import { layout, route, type RouteTableEntry } from '../../../shared/api/route-definition.ts';
import * as author from './author.tsx';
import * as book from './book.tsx';
import * as file from './file.ts';
import * as shelf from './shelf.tsx';

/**
 * The route table of the typed path parameters' tests (test/unit/typed-params.test.tsx,
 * route-types.test.ts): one page at two paths inside a layout, a page whose segment is optional
 * inside the same layout, and a resource route with a wildcard. `npm run typegen` writes its
 * modules' `./+types/` files.
 */
export const routes: readonly RouteTableEntry[] = [
  layout(shelf, [route('/books/:id', book), route('/shelves/:shelf/books/:id', book), route('/authors{/:name}', author)], { id: 'shelf' }),
  route('/files/*path', file),
];
