import { describe, expect, test } from 'vitest';
import { defineRoute, layout } from '../../shared/api/route-definition.ts';
import { buildApp } from '../support/build-app.ts';

const page = { component: () => null };

describe('route paths are refused as the app is built unless Express 5 reads them as written', () => {
  test.each([
    ['/tabs/:tab?', 'not an Express 5 path (Unexpected ? at index 10: /tabs/:tab?): an optional segment is written in braces, {/:name}'],
    ['/files/*', 'not an Express 5 path (Missing parameter name at index 8: /files/*): a wildcard has a name, *name (its segments joined by / in params.name)'],
    ['/users/:id+', 'not an Express 5 path (Unexpected + at index 10: /users/:id+): a repeated parameter is a wildcard with a name, *name'],
    ['/orders/(\\d+)', 'not an Express 5 path (Unexpected ( at index 8: /orders/(\\d+)): a path holds no regular expression: match a parameter, then check it in load'],
    ['/:', 'not an Express 5 path (Missing parameter name at index 2: /:)'],
  ])('%s: the error names the route and says how Express 5 writes it', (path, problem) => {
    expect(() => buildApp([defineRoute({ path, ...page })])).toThrow(`Route ${path}: ${problem}`);
  });

  test('a child of a layout written without its leading slash, as React Router writes nested paths, is refused: Express would never match it', () => {
    const table = [layout({ default: () => null }, [defineRoute({ path: 'products', ...page })], { id: 'shop' })];
    expect(() => buildApp(table)).toThrow(`Route products: a path starts with "/" (a layout adds no segment: its routes write their full paths, as in '/products')`);
  });

  test('the Express 5 forms are taken', () => {
    for (const path of ['/', '/tabs{/:tab}', '/files/*path', '/flights/:from-:to', '/users/:id']) {
      expect(() => buildApp([defineRoute({ path, ...page })]), path).not.toThrow();
    }
  });
});
