import { randomBytes } from 'node:crypto';

/**
 * `npm start`: the built server on this machine, in production mode. A deployment sets
 * `CSRF_SECRET` (the same on every instance) and runs `node dist/server/main.js`, which
 * refuses to start without it; for a single local run, a secret made here will do, and this
 * says so. Everything else is read by the server itself (server/config.ts).
 */
process.env.NODE_ENV ??= 'production';
if ((process.env.CSRF_SECRET ?? '').trim() === '') {
  process.env.CSRF_SECRET = randomBytes(48).toString('base64url');
  process.stderr.write('npm start: CSRF_SECRET is not set, so this run uses a random one (form tokens end with it); deployments set their own\n');
}
await import(new URL('../dist/server/main.js', import.meta.url).href);
