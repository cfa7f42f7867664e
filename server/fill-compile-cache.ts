import { flushCompileCache } from 'node:module';
import { enableServerCompileCache } from './compile-cache.ts';

/** The server bundle beside this file (scripts/build-server.ts names it). */
const SERVER_BUNDLE = 'server.js';
/** A name the bundle does not export: asking for it fails the link. */
const NOT_EXPORTED = 'compiledButNotRun';

/**
 * `node dist/server/fill-compile-cache.js`, run by `npm run build` and by the image's own Node as
 * the user that runs the server (Dockerfile): enables Node's compile cache in the folder the
 * entry reads, has Node compile the server bundle, and writes what it compiled
 * (docs/deployment.md#compile-cache). Node keeps the code V8 compiles as it loads a module,
 * before the module runs, so that is all a start would add.
 *
 * Compiled, never run: the bundle is imported by a module that asks it for a name it does not
 * export. Node parses and compiles every module of the graph first, then links them, and the
 * link fails on that name before any of them runs. So no app module runs at build time: one that
 * reads a database's address as it loads, or connects, does neither in the image build.
 */
const compileCache = enableServerCompileCache(import.meta.dirname);
if (compileCache.status !== 'enabled') {
  throw new Error(`filling the compile cache: Node's compile cache is ${compileCache.status}${compileCache.message === undefined ? '' : `: ${compileCache.message}`}`);
}
const bundle = new URL(`./${SERVER_BUNDLE}`, import.meta.url).href;
try {
  await import(`data:text/javascript,import { ${NOT_EXPORTED} } from ${JSON.stringify(bundle)};`);
  throw new Error(`filling the compile cache: ${SERVER_BUNDLE} exports ${NOT_EXPORTED}, so it ran`);
} catch (error) {
  // Anything else (a bundle that does not parse, say) is a failure to report.
  if (!(error instanceof SyntaxError && error.message.includes(NOT_EXPORTED))) throw error;
}
flushCompileCache();
