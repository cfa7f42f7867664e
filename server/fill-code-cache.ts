import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadServer, writeCodeCache } from './load-server.ts';

/**
 * `node dist/server/fill-code-cache.js`, run by `npm run build` and by the image's own Node
 * (Dockerfile): starts the server beside it on a loopback port, asks what a new instance is
 * asked first (the probes, then the home page, compressed and not), and writes what V8
 * compiled by then as the bundle's code cache (docs/deployment.md#code-cache). It needs no
 * settings: the server gets production mode, a loopback port, a secret of its own and every
 * other default, whatever the environment says, so it runs the code a production start runs.
 */
const BROWSER = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
};
const FIRST_REQUESTS: readonly (readonly [string, Record<string, string>])[] = [
  ['/healthz', {}],
  ['/readyz', {}],
  ['/', { ...BROWSER, 'accept-encoding': 'br, gzip' }],
  ['/', BROWSER],
];

/** A page that never ends must not hold the build up. */
const ANSWER_DEADLINE_MS = 5_000;

function get(port: number, path: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false, timeout: ANSWER_DEADLINE_MS }, (res) => {
      res.resume();
      res.on('end', resolve);
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${path} did not end within ${ANSWER_DEADLINE_MS / 1000} s`)));
    req.on('error', reject);
    req.end();
  });
}

const dir = import.meta.dirname;
const server = loadServer(dir, { forCodeCache: true });
const { server: listener } = await server.main({
  defaultAssetsDir: join(dir, '..', 'client'),
  // Production defaults whatever the build's environment says: the code a deployment runs.
  env: { NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', CSRF_SECRET: randomBytes(48).toString('base64url') },
});
const { port } = listener.address() as AddressInfo;
// Whatever they answer, the code that answered is compiled: a page that fails is for the tests to
// report, not for this run.
for (const [path, headers] of FIRST_REQUESTS) await get(port, path, headers);
const bytes = server.codeCacheNow();
if (bytes === undefined) throw new Error('filling the code cache: the bundle was not compiled by vm.Script');
writeCodeCache(dir, bytes);
process.exit(0);
