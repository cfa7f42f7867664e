import type { Express } from 'express';
import { createContext, runInContext } from 'node:vm';
import request from 'supertest';
import { PAGE_DATA_SCOPE } from '../../shared/protocol/page-data.ts';

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

/**
 * The route table a hydrating page points to (server/render/route-table-module.ts): its module
 * fetched from the app as a browser would, and run as a module.
 */
export async function routeTableOf(app: Express, html: string): Promise<unknown[]> {
  const url: unknown = Reflect.get(Object(pageDataOf(html)), 'navigation');
  if (typeof url !== 'string') throw new Error('the page data names no route table');
  const res = await request(app).get(url);
  if (res.status !== 200 || !String(res.headers['content-type']).startsWith('text/javascript')) throw new Error(`${url}: ${res.status} ${res.headers['content-type']}`);
  const module: unknown = await import(`data:text/javascript;base64,${Buffer.from(res.text).toString('base64')}`);
  const table: unknown = Reflect.get(Object(module), 'default');
  if (!Array.isArray(table)) throw new Error(`${url} exports no table`);
  return table;
}
