import type { ParamSet } from './path-params.ts';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/**
 * The TypeScript type of what a module may be given as `params` at any of its paths (a module
 * at two paths, a layout around several): every parameter one of them has, a string where
 * every path has it and optional where one lacks it or holds it in braces, so a name no path
 * has is a type error. One object rather than a union of the paths': it reads the same
 * (`params.shelf` is `string | undefined`) and stays within `RouteParams`.
 */
export function paramsType(sets: readonly ParamSet[]): string {
  const names = [...new Set(sets.flatMap((set) => [...set.keys()]))];
  const fields = names.map((name) => {
    const always = sets.every((set) => set.get(name) === true);
    return `readonly ${key(name)}${always ? '' : '?'}: string`;
  });
  return fields.length === 0 ? '{}' : `{ ${fields.join('; ')} }`;
}
