import { createContext, runInContext } from 'node:vm';
import { PAGE_DATA_SCOPE } from '../../shared/page-data.ts';

/** The inline scripts of a page (no `src`), in document order. */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
}

/** The page's data scripts: they build or settle values in `self.$R` (server/render/data-stream.ts). */
export function dataScripts(html: string): string[] {
  return inlineScripts(html).filter((script) => script.includes('(self.$R') || script.startsWith('($R=>'));
}

/**
 * Runs a page's data scripts as a browser would, in order, in a fresh context, and returns the
 * page data they built (`self.$R[scope][0]`): what the client hydrates from.
 */
export function pageDataOf(html: string): unknown {
  const context = createContext({ URL, addEventListener: () => undefined });
  runInContext('var self = globalThis;', context);
  for (const script of dataScripts(html)) runInContext(script, context);
  const scopes: unknown = runInContext('self.$R', context);
  if (typeof scopes !== 'object' || scopes === null) throw new Error('the page built no data');
  const scope: unknown = Reflect.get(scopes, PAGE_DATA_SCOPE);
  return Array.isArray(scope) ? scope[0] : undefined;
}
