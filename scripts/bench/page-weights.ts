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

/** Status pages the product renders, reached the way a visitor reaches them. */
const STATUS_PAGES = [
  { page: '404 (GET /no/such/page)', method: 'GET', path: '/no/such/page', status: 404 },
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
  return { pages, smallest: await smallestHydratingBundle() };
}
