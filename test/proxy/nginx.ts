import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nginxPath } from '../support/system-components.ts';

/** Debian's nginx, or NGINX_PATH; vitest.config.ts let this project run only if it starts. */
export const NGINX = nginxPath();
const SITE_CONFIG = join(import.meta.dirname, '..', '..', 'deploy', 'nginx', 'app.conf');

export async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface NginxOptions {
  readonly port: number;
  readonly upstreams: readonly [number, number];
  /** Test-only lines added to the proxied location (e.g. `proxy_bind 127.0.0.2;`). */
  readonly locationExtras?: string;
}

export interface RunningNginx {
  readonly origin: string;
  /**
   * Takes the instance on `upstreams[index]` out of the upstream (`down: true`) or puts it back,
   * as an operator drains one before restarting it: the site config rewritten with `down` on its
   * line and nginx reloaded (SIGHUP). Resolves once the workers of the old configuration have
   * exited, each after finishing the requests it had: from then on none reaches that instance.
   */
  drain(index: 0 | 1, down: boolean): Promise<void>;
  /** nginx's error log so far: what it says about upstreams when a test fails. */
  errorLog(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Renders the repo's documented site config with this test's ports, failing if the config no
 * longer has the lines the test expects to change, and runs real nginx on loopback.
 */
export async function renderSiteConfig({ port, upstreams, locationExtras = '' }: NginxOptions): Promise<string> {
  const site = await readFile(SITE_CONFIG, 'utf8');
  const replacements: ReadonlyArray<readonly [string, string]> = [
    ['server 127.0.0.1:3000 ', `server 127.0.0.1:${upstreams[0]} `],
    ['server 127.0.0.1:3001 ', `server 127.0.0.1:${upstreams[1]} `],
    ['listen 8080;', `listen 127.0.0.1:${port};`],
    ['location / {', `location / {\n        ${locationExtras}`],
  ];
  let rendered = site;
  for (const [from, to] of replacements) {
    if (!rendered.includes(from)) throw new Error(`deploy/nginx/app.conf no longer contains "${from}"`);
    rendered = rendered.replace(from, to);
  }
  return rendered;
}

/** The master's worker processes, from /proc (Linux: the only system these tests run nginx on). */
async function workersOf(master: number): Promise<number[]> {
  const text = await readFile(`/proc/${master}/task/${master}/children`, 'utf8').catch(() => '');
  return text.trim().split(/\s+/).filter(Boolean).map(Number);
}

export async function startNginx(options: NginxOptions): Promise<RunningNginx> {
  const dir = await mkdtemp(join(tmpdir(), 'nginx-'));
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(join(dir, sub));
  const site = await renderSiteConfig(options);
  await writeFile(join(dir, 'app.conf'), site);
  const runsAsRoot = process.getuid?.() === 0;
  await writeFile(
    join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      runsAsRoot ? 'user root;' : '',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      // autocannon ignores `Connection: close` and writes its next request at once; when nginx
      // closes a client connection after its 1000th request (the default), that write can meet
      // a reset. Browsers reconnect; the load generator would count an error the app never saw.
      '  keepalive_requests 1000000;',
      `  client_body_temp_path ${join(dir, 'client_body')};`,
      `  proxy_temp_path ${join(dir, 'proxy')};`,
      `  fastcgi_temp_path ${join(dir, 'fastcgi')};`,
      `  uwsgi_temp_path ${join(dir, 'uwsgi')};`,
      `  scgi_temp_path ${join(dir, 'scgi')};`,
      `  include ${join(dir, 'app.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await Promise.race([
      waitForPort(options.port),
      exited.then(() => {
        throw new Error(`nginx exited at start: ${stderr}`);
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    origin: `http://127.0.0.1:${options.port}`,
    errorLog: () => readFile(join(dir, 'error.log'), 'utf8').catch(() => ''),
    async drain(index, down) {
      const line = `server 127.0.0.1:${options.upstreams[index]} `;
      const current = await readFile(join(dir, 'app.conf'), 'utf8');
      const next = current.replace(new RegExp(`${line}([^;]*?)( down)?;`), (_match, rest: string) => `${line}${rest}${down ? ' down' : ''};`);
      if (next === current && !current.includes(`${line}`)) throw new Error(`no upstream line for ${line}`);
      await writeFile(join(dir, 'app.conf'), next);
      const master = child.pid;
      if (master === undefined) throw new Error('nginx has no process');
      const before = await workersOf(master);
      child.kill('SIGHUP');
      const deadline = Date.now() + 15_000;
      for (;;) {
        const now = await workersOf(master);
        if (now.length > 0 && now.every((pid) => !before.includes(pid))) return;
        if (Date.now() > deadline) throw new Error(`nginx's old workers ${before.join(', ')} still run 15 s after the reload: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
