import { isAbsolute, relative, sep } from 'node:path';

/** A file as the build's messages name it: relative to the working folder when inside it, with forward slashes. */
export function displayPath(file: string, base = process.cwd()): string {
  const inside = relative(base, file);
  const shown = inside === '' || inside.startsWith('..') || isAbsolute(inside) ? file : inside;
  return shown.split(sep).join('/');
}
