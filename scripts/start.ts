import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `npm start`: the built server on this machine, in production mode. A deployment sets
 * `CSRF_SECRET` and the app's own secrets (the guest book's `SESSION_SECRET`), each the same on
 * every instance, and runs `node dist/server/main.js`, which refuses to start without them. For a
 * single local run, `MAKE_MISSING_SECRETS=on` lets the server make each secret left unset, its
 * own and those the app reads with `readSecret`, whatever they are called; this says so.
 * Everything else is read by the server itself (server/config.ts, and the app's settings in
 * app/app.ts).
 */
process.env.NODE_ENV ??= 'production';
if ((process.env.MAKE_MISSING_SECRETS ?? '').trim() === '') {
  process.env.MAKE_MISSING_SECRETS = 'on';
  process.stderr.write(
    "npm start: secrets not set (CSRF_SECRET, and the app's own such as SESSION_SECRET) are made for this run, so form tokens and sessions end with it; deployments set their own\n",
  );
}
// The project's build, in the folder the command runs in (the repository's, or an app's).
await import(pathToFileURL(join(process.cwd(), 'dist', 'server', 'main.js')).href);
