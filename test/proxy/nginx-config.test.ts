import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DEFAULTS } from '../../server/config.ts';
import { NGINX, renderSiteConfig } from './nginx.ts';

const SITE_CONFIG = join(import.meta.dirname, '..', '..', 'deploy', 'nginx', 'app.conf');
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('the documented nginx example (deploy/nginx/app.conf)', () => {
  test('passes `nginx -t` exactly as shipped', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nginx-check-'));
    dirs.push(dir);
    await writeFile(join(dir, 'nginx.conf'), `pid ${join(dir, 'nginx.pid')};\nevents {}\nhttp {\n  access_log off;\n  include ${SITE_CONFIG};\n}\n`);
    const check = spawnSync(NGINX, ['-t', '-q', '-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], { encoding: 'utf8', timeout: 10_000 });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  test("points at instances on the server's default port and keeps upstream connections open for less than the app does, and than its shutdown delay", async () => {
    const site = await readFile(SITE_CONFIG, 'utf8');
    expect(site).toContain(`server 127.0.0.1:${DEFAULTS.port} `);
    const upstreamIdleSeconds = Number(/keepalive_timeout (\d+)s;/.exec(site)?.[1]);
    // nginx must close an idle upstream connection before the app does, or it may send a
    // request on a socket the app is closing.
    expect(upstreamIdleSeconds * 1000).toBeLessThan(DEFAULTS.keepAliveTimeoutMs);
    // And before a draining instance closes its idle connections, when its delay ends: a
    // connection idle since before the signal is nginx's to close, so no POST is sent into that
    // close (nginx retries a GET, never a POST: the client would get a 502).
    expect(upstreamIdleSeconds * 1000).toBeLessThan(DEFAULTS.shutdownDelayMsProduction);
    expect(site).toMatch(/proxy_next_upstream error timeout;/);
    expect(site).toMatch(/proxy_set_header Connection "";/);
  });

  test('is rendered for the tests with their ports, and refuses to render if a line they change is gone', async () => {
    const rendered = await renderSiteConfig({ port: 18080, upstreams: [13000, 13001], locationExtras: 'proxy_bind 127.0.0.2;' });
    expect(rendered).toContain('server 127.0.0.1:13000 ');
    expect(rendered).toContain('server 127.0.0.1:13001 ');
    expect(rendered).toContain('listen 127.0.0.1:18080;');
    expect(rendered).toContain('proxy_bind 127.0.0.2;');
    expect(rendered).not.toContain('127.0.0.1:3000 ');
  });
});
