#!/usr/bin/env node
/**
 * The framework's command, `react-stream-shell` (package.json's `bin`), for the app in the folder
 * it runs in (its `app/`, docs/building-an-app.md): `build` writes `dist/`, `dev` serves it with
 * rebuilds and reloads, `start` builds and serves it in production mode, `typegen` writes its
 * route types for its type check (build and dev write them too), `init <folder>` makes a new app
 * there from the template.
 */

const USAGE = 'usage: react-stream-shell build | dev | start | typegen | init <folder>\n';

const [command, ...rest] = process.argv.slice(2);
switch (command) {
  case 'build':
    await import('./build.ts');
    break;
  case 'dev':
    await import('./dev.ts');
    break;
  case 'typegen':
    await import('./typegen.ts');
    break;
  case 'start':
    await import('./build.ts');
    await import('./start.ts');
    break;
  case 'init': {
    const { initApp } = await import('./init.ts');
    process.exitCode = initApp(rest[0]);
    break;
  }
  default:
    process.stderr.write(USAGE);
    // sysexits' EX_USAGE.
    process.exitCode = 64;
}
