import { APP_ROUTES } from '../build-client.ts';
import { firstLoadJavaScript, firstLoadWithoutNavigation, javaScriptOfDocument, smallestHydratingBundle, type JavaScriptWeight } from '../lib/first-load-js.ts';
import { httpGet } from '../lib/http-get.ts';
import type { BenchServer } from './spawn-bench-server.ts';

export interface PageWeight {
  readonly page: string;
  readonly weight: JavaScriptWeight;
}

export interface PageWeights {
  readonly pages: readonly PageWeight[];
  readonly smallest: JavaScriptWeight;
}

/**
 * Status pages the framework renders, reached the way a visitor reaches them. An unknown
 * address under `/assets/` gets the framework's 404 even where the app shows its own inside
 * its layout (the example app does: the row below), which is a page and hydrates.
 */
export const STATUS_PAGES = [
  { page: '404 (GET /assets/no-such-file.js)', method: 'GET', path: '/assets/no-such-file.js', status: 404 },
  { page: '405 (POST /)', method: 'POST', path: '/', status: 405 },
  { page: '400 (GET /%E0%A4%A)', method: 'GET', path: '/%E0%A4%A', status: 400 },
] as const;

/**
 * First-load JavaScript: `/` from the build manifest (entry + preloads), the status pages from
 * what the running product actually serves (referenced files and inline scripts), and the
 * smallest hydrating bundle beside them.
 */
export async function measurePageWeights(product: BenchServer, clientDir: string): Promise<PageWeights> {
  // What the browser would load: the route table's module is made by the server, not built.
  async function readScript(url: string): Promise<Buffer> {
    const res = await httpGet(`${product.origin}${url}`, 10_000);
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
    return Buffer.from(res.body);
  }
  const pages: PageWeight[] = [
    { page: '/ (home)', weight: await firstLoadJavaScript(clientDir, '/') },
    { page: '/ without navigation, forms, layouts, fetchers', weight: await firstLoadWithoutNavigation(APP_ROUTES, '/') },
  ];
  for (const { page, method, path, status } of STATUS_PAGES) {
    const res = await httpGet(`${product.origin}${path}`, 10_000, method);
    if (res.status !== status) throw new Error(`${method} ${path} answered ${res.status}, expected ${status}`);
    pages.push({ page, weight: await javaScriptOfDocument(res.body, readScript) });
  }
  // The app's own not-found page, inside its root layout: a page, weighed as one, no status page.
  const appNotFound = await httpGet(`${product.origin}/no/such/page`, 10_000);
  if (appNotFound.status !== 404) throw new Error(`GET /no/such/page answered ${appNotFound.status}, expected 404`);
  pages.push({ page: "the app's 404 page, in its layout (GET /no/such/page)", weight: await javaScriptOfDocument(appNotFound.body, readScript) });
  return { pages, smallest: await smallestHydratingBundle() };
}
