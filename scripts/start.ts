import { randomBytes } from 'node:crypto';

/**
 * `npm start`: the built server on this machine, in production mode. A deployment sets
 * `CSRF_SECRET` and, for an app with sessions, `SESSION_SECRET` (each the same on every
 * instance) and runs `node dist/server/main.js`, which refuses to start without them; for a
 * single local run, secrets made here will do, and this says so. Everything else is read by the
 * server itself (server/config.ts, and the app's settings in app/app.ts).
 */
process.env.NODE_ENV ??= 'production';
for (const [name, what] of [
  ['CSRF_SECRET', 'form tokens'],
  ['SESSION_SECRET', 'sessions'],
] as const) {
  if ((process.env[name] ?? '').trim() !== '') continue;
  process.env[name] = randomBytes(48).toString('base64url');
  process.stderr.write(`npm start: ${name} is not set, so this run uses a random one (${what} end with it); deployments set their own\n`);
}
await import(new URL('../dist/server/main.js', import.meta.url).href);
