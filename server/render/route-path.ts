import { pathToRegexp } from 'path-to-regexp';

/**
 * What Express 4 and React Router paths write that Express 5 (path-to-regexp 8) does not, and
 * its Express 5 form: path-to-regexp's own message names the character, not the fix.
 */
const EXPRESS_5_FORMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/:\w+\?/, 'an optional segment is written in braces, {/:name}'],
  [/\*(?![A-Za-z_$])/, 'a wildcard has a name, *name (its segments joined by / in params.name)'],
  [/:\w+[+*]/, 'a repeated parameter is a wildcard with a name, *name'],
  [/\(/, 'a path holds no regular expression: match a parameter, then check it in load'],
];

/**
 * Why `path` cannot be a route's path, or `undefined` when it can: a route's path is its full
 * address, from `/` (a layout adds no segment), in Express 5's syntax. Asked by the build, which
 * names the file and the line, and by `createApp`; Express would only find a bad pattern as it
 * starts, with path-to-regexp's message and no route named, and would never match a path that
 * does not start with `/`.
 */
export function routePathProblem(path: string): string | undefined {
  if (!path.startsWith('/')) return `a path starts with "/" (a layout adds no segment: its routes write their full paths, as in '/${path}')`;
  try {
    pathToRegexp(path);
    return undefined;
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(/; visit \S+ for info$/, '');
    const form = EXPRESS_5_FORMS.find(([written]) => written.test(path))?.[1];
    return `not an Express 5 path (${reason})${form === undefined ? '' : `: ${form}`}`;
  }
}
