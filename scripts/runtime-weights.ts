import { relative } from 'node:path';
import { ROOT } from './build-client.ts';
import { firstLoadOfRoute, smallestHydratingBundle } from './lib/first-load-js.ts';
import { APP_LIST_PATH } from './bench/app-list-fixture.ts';

/**
 * `npm run weights [-- <routes module> <path>]`: what a page's first-load JavaScript is made of,
 * module by module, as esbuild's metafile counts the minified bytes each source puts into the
 * served files. Without arguments, the bench's app-shaped list page (layouts, a fetcher per
 * item, deferred data, forms: docs/app-benchmark.md), the page whose budget npm test holds.
 * Gzip is measured for the whole page and for React's floor (the smallest hydrating bundle);
 * a module's share of the rest is its share of the minified bytes outside React, an estimate.
 */
const [routesModule = `${ROOT}/scripts/bench/bench-routes.tsx`, path = APP_LIST_PATH] = process.argv.slice(2);

const REACT = /^node_modules\/(react|react-dom|scheduler)\//;
/** A module's group: React, a package, the framework's browser runtime, or the page's own code. */
function groupOf(input: string): string {
  if (REACT.test(input)) return 'React (react, react-dom, scheduler)';
  if (input.startsWith('node_modules/'))
    return `package ${input
      .split('/')
      .slice(1, input.startsWith('node_modules/@') ? 3 : 2)
      .join('/')}`;
  if (/^(client|shared)\//.test(input)) return 'framework';
  return 'page and its layouts';
}

const [page, floor] = await Promise.all([firstLoadOfRoute(routesModule, path), smallestHydratingBundle()]);
const outsideReact = [...page.modules].filter(([input]) => !REACT.test(input));
const minifiedOutside = outsideReact.reduce((sum, [, bytes]) => sum + bytes, 0);
const gzipOutside = page.weight.gzipBytes - floor.gzipBytes;
const estimate = (bytes: number) => Math.round((bytes / minifiedOutside) * gzipOutside);

const groups = new Map<string, number>();
for (const [input, bytes] of page.modules) groups.set(groupOf(input), (groups.get(groupOf(input)) ?? 0) + bytes);
const n = (value: number) => value.toLocaleString('en-US');

process.stdout.write(
  `first-load JavaScript of ${path} (${relative(ROOT, routesModule)}): ${n(page.weight.gzipBytes)} gzip bytes in ${page.weight.files.length} file${page.weight.files.length === 1 ? '' : 's'}, ${n(page.weight.bytes)} minified\n`,
);
process.stdout.write(`React's floor (the smallest hydrating bundle): ${n(floor.gzipBytes)} gzip bytes; the rest: ${n(gzipOutside)}\n\n`);
process.stdout.write(`${'minified'.padStart(9)}  ${'gzip (est.)'.padStart(11)}  group\n`);
for (const [group, bytes] of [...groups].sort((a, b) => b[1] - a[1]))
  process.stdout.write(`${n(bytes).padStart(9)}  ${(group.startsWith('React') ? `${n(floor.gzipBytes)} floor` : n(estimate(bytes))).padStart(11)}  ${group}\n`);
process.stdout.write(`\n${'minified'.padStart(9)}  ${'gzip (est.)'.padStart(11)}  module outside React\n`);
for (const [input, bytes] of outsideReact.sort((a, b) => b[1] - a[1])) {
  if (bytes === 0) continue;
  process.stdout.write(`${n(bytes).padStart(9)}  ${n(estimate(bytes)).padStart(11)}  ${input}\n`);
}
process.stdout.write(`\n${'minified'.padStart(9)}  ${'gzip'.padStart(11)}  loaded later, by a dynamic import, if ever\n`);
for (const chunk of page.later) {
  const own = chunk.modules.filter((input) => !input.startsWith('node_modules/'));
  const named = own.length > 0 ? own : [groupOf(chunk.modules[0] ?? '')];
  process.stdout.write(`${n(chunk.bytes).padStart(9)}  ${n(chunk.gzipBytes).padStart(11)}  ${named.join(', ')}\n`);
}
