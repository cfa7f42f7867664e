import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { freePort } from '../../scripts/lib/loopback.ts';
import { createDatabase } from '../support/postgres-server.ts';
import { startServerEntry, type ServerProcess } from '../support/server-process.ts';
import { startNginx, type RunningNginx } from '../proxy/nginx.ts';

/**
 * The example app as deployed for several instances: two built instances behind the shipped
 * nginx configuration (deploy/nginx/app.conf), sharing one PostgreSQL (the project's global
 * setup), sessions in it. This project needs nginx and PostgreSQL both: it steps aside when
 * either is missing (test/support/system-components.ts).
 */

/** The app's production entry as `npm run build` writes it (npm test builds before the tests run). */
const MAIN_ENTRY = join(import.meta.dirname, '..', '..', 'dist', 'server', 'main.js');
/** nginx connects from this address (proxy_bind); the instances trust only it. */
const PROXY_ADDRESS = '127.0.0.2';
const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin' } as const;
const WRITERS = 4;

let nginx: RunningNginx;
let databaseUrl: string;
let ports: [number, number];
const instances: ServerProcess[] = [];

function instanceEnv(port: number): Record<string, string> {
  return {
    PORT: String(port),
    TRUST_PROXY: PROXY_ADDRESS,
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '4',
    SESSION_STORE: 'database',
    GUESTBOOK_ADMINS: 'Grace',
    // The production default, above nginx's 4 s upstream keep-alive, as deploy/nginx/app.conf asks.
    SHUTDOWN_DELAY_MS: '5000',
  };
}

beforeAll(async () => {
  if (!existsSync(MAIN_ENTRY)) throw new Error(`${MAIN_ENTRY} is missing: run npm run build first`);
  databaseUrl = await createDatabase(inject('postgresUrl'));
  ports = [await freePort(), await freePort()];
  for (const port of ports) instances.push(await startServerEntry(MAIN_ENTRY, instanceEnv(port)));
  nginx = await startNginx({ port: await freePort(), upstreams: ports, locationExtras: `proxy_bind ${PROXY_ADDRESS};` });
});
afterAll(async () => {
  await nginx?.stop();
  await Promise.all(instances.map((instance) => instance.stop()));
});

/** What one request got: its status, or the error that ended it. */
type Outcome = { readonly status: number } | { readonly error: string };

/** Requests sent again because nginx closed the kept-alive connection they were written on, unanswered. */
let resent = 0;

/** How a connection nginx closed as the request was written on it ends the request: its close (a FIN), or a reset once the bytes met it closed. */
function closedUnanswered(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return (cause?.code === 'UND_ERR_SOCKET' && cause.message === 'other side closed') || cause?.code === 'ECONNRESET';
}

/**
 * One request as a browser sends it. nginx's reload closes the idle client connections of its
 * old workers; a request written on one just then meets the close with no byte of an answer,
 * and a browser sends it again on a new connection (it never reached nginx's handling). undici
 * leaves that to its caller; this does it once, only when no answer's head came, and only for
 * those two errors. The table check below would see a write sent twice.
 */
async function attempt(url: string, init: RequestInit): Promise<Outcome> {
  for (let tries = 0; ; tries += 1) {
    let res: Response;
    try {
      res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      if (tries === 0 && closedUnanswered(error)) {
        resent += 1;
        continue;
      }
      return { error: failureOf(error) };
    }
    try {
      await res.arrayBuffer();
      return { status: res.status };
    } catch (error) {
      return { error: failureOf(error) };
    }
  }
}

function failureOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message} ${String(error.cause ?? '')}` : String(error);
}

function sessionCookieOf(res: Response): string {
  const cookie = res.headers.getSetCookie().find((line) => line.startsWith('__session='));
  return (cookie ?? '').split(';')[0] ?? '';
}

describe('two instances behind nginx sharing one PostgreSQL', () => {
  test('a rolling restart under writes, each instance drained from nginx first, fails no request, loses no write, and keeps a signed-in visitor signed in', async () => {
    const signIn = await fetch(`${nginx.origin}/sign-in`, {
      method: 'POST',
      headers: { ...SAME_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=Grace',
      redirect: 'manual',
    });
    expect(signIn.status).toBe(303);
    const cookie = sessionCookieOf(signIn);
    expect(cookie).toMatch(/^__session=[\w-]+\.\d+\.[\w-]+$/);

    let running = true;
    const written: string[] = [];
    const failed: Array<{ readonly what: string; readonly outcome: Outcome }> = [];
    let adminViews = 0;
    async function writer(index: number): Promise<void> {
      for (let n = 0; running; n += 1) {
        const message = `writer ${index} entry ${n}`;
        const outcome = await attempt(`${nginx.origin}/guestbook`, {
          method: 'POST',
          headers: { ...SAME_ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ name: `Writer ${index}`, message }).toString(),
        });
        if ('status' in outcome && outcome.status === 303) written.push(message);
        else failed.push({ what: `POST ${message}`, outcome });
      }
    }
    async function signedInVisitor(): Promise<void> {
      while (running) {
        const outcome = await attempt(`${nginx.origin}/admin`, { headers: { Cookie: cookie } });
        if ('status' in outcome && outcome.status === 200) adminViews += 1;
        else failed.push({ what: 'GET /admin', outcome });
      }
    }
    const load = Promise.all([...Array.from({ length: WRITERS }, (_, index) => writer(index)), signedInVisitor()]);

    for (const index of [0, 1] as const) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const old = instances[index];
      if (old === undefined) throw new Error('instance missing');
      // As an operator restarts one instance behind open nginx, which has no active health
      // checks: out of the upstream first (nginx reloaded, its old workers done), then SIGTERM,
      // then back once the new process listens (docs/deployment.md#a-rolling-restart).
      await nginx.drain(index, true);
      old.child.kill('SIGTERM');
      expect(await old.exited).toEqual({ code: 0, signal: null });
      instances[index] = await startServerEntry(MAIN_ENTRY, instanceEnv(ports[index]));
      await nginx.drain(index, false);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    running = false;
    await load;
    process.stdout.write(
      `rolling restart, shared PostgreSQL: ${written.length} writes answered 303, ${adminViews} admin views, ${failed.length} requests failed, ${resent} sent again after nginx's reload closed their connection\n`,
    );
    if (failed.length > 0) process.stdout.write(`${JSON.stringify(failed.slice(0, 5))}\nnginx error log:\n${await nginx.errorLog()}\n`);
    // No request fails, post or read: each instance left the upstream before its SIGTERM.
    expect(failed).toEqual([]);
    expect(written.length).toBeGreaterThan(100);
    expect(adminViews).toBeGreaterThan(20);

    // Every answered write is in the database, each once (nginx never sent a POST twice).
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ message: string }>('SELECT message FROM entries');
      expect(rows.map((row) => row.message).sort()).toEqual([...written].sort());
    } finally {
      await client.end();
    }
    // Both restarted instances know the visitor: the session lives in the database, not in a process.
    for (const instance of instances) {
      const res = await fetch(`${instance.origin}/admin`, { headers: { Cookie: cookie } });
      expect(res.status).toBe(200);
      expect((await res.text()).replaceAll('<!-- -->', '')).toContain('Signed in as Grace.');
    }
  }, 90_000);
});
