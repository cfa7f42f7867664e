import { relative, resolve } from 'node:path';
import { APP_ROUTES, PROJECT } from './build-client.ts';
import { runBuild } from './lib/run-build.ts';
import { writeRouteTypes } from './route-types/write-route-types.ts';

/**
 * `react-stream-shell typegen [table…]`: the route types of the project's tables (its
 * `app/routes.ts` when none is named), written under `.react-stream-shell/types/` for its type
 * check (docs/building-an-app.md#typed-path-parameters). The build and dev write them too.
 */
// Run as `react-stream-shell typegen`, its arguments follow the command's name.
const given = process.argv.slice(2);
const tables = given[0] === 'typegen' ? given.slice(1) : given;
await runBuild(async () => {
  for (const table of tables.length === 0 ? [APP_ROUTES] : tables.map((named) => resolve(PROJECT, named))) {
    const { written, removed } = await writeRouteTypes(table, PROJECT);
    process.stdout.write(`route types of ${relative(PROJECT, table)}: ${written.length} file(s) written, ${removed.length} removed\n`);
  }
});
