import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { ConfigError, defineApp, readSecret, resolveApp } from '../../server/app-definition.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { buildApp, errorLines } from '../support/build-app.ts';

declare module '../../shared/api/route-definition.ts' {
  interface AppLoadContext {
    readonly greeting?: string;
  }
}

const page = defineRoute({
  path: '/hello',
  component: ({ data }: { data: { greeting: string } }) => data.greeting,
  load: ({ context }) => ({ greeting: context.greeting ?? 'no context' }),
});

describe('an app declaration', () => {
  test('reads its settings once, and hands them to getLoadContext and middleware', async () => {
    let reads = 0;
    const definition = defineApp({
      routes: [page],
      settings: (env) => {
        reads += 1;
        return { greeting: env.GREETING ?? 'unset' };
      },
      getLoadContext: (_args, settings) => ({ greeting: `${settings.greeting} from the context` }),
      middleware: (router, settings) => {
        router.get('/api/greeting', (_req, res) => {
          res.json({ greeting: settings.greeting });
        });
      },
    });
    const resolved = resolveApp(definition, { GREETING: 'hi' });
    const { app } = buildApp(resolved.routes, { getLoadContext: resolved.getLoadContext, middleware: resolved.middleware });
    expect((await request(app).get('/hello').expect(200)).text).toContain('hi from the context');
    expect((await request(app).get('/api/greeting').expect(200)).body).toEqual({ greeting: 'hi' });
    expect(reads).toBe(1);
  });

  test('a bad setting is a ConfigError naming the variable, as the framework reports its own', () => {
    const definition = defineApp({ routes: [], settings: (env) => ({ secret: readSecret(env, 'SESSION_SECRET') }) });
    expect(() => resolveApp(definition, { NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => resolveApp(definition, { NODE_ENV: 'production' })).toThrow('Invalid SESSION_SECRET=""');
    expect(() => resolveApp(definition, { NODE_ENV: 'production', SESSION_SECRET: 'short' })).toThrow('<5 characters, not shown>');
    const long = 's'.repeat(40);
    expect(() => resolveApp(definition, { NODE_ENV: 'production', SESSION_SECRET: long })).not.toThrow();
  });

  test('outside production an unset secret is made for the process, different each time', () => {
    const first = readSecret({ NODE_ENV: 'development' }, 'SESSION_SECRET');
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readSecret({ NODE_ENV: 'test' }, 'SESSION_SECRET')).not.toBe(first);
  });
});

describe("the app's middleware", () => {
  const built = () =>
    buildApp([page], {
      middleware: (router) => {
        router.get('/api/ok', (_req, res) => {
          res.json({ ok: true });
        });
        router.get('/api/broken', () => {
          throw new Error('middleware exploded: SECRET-DETAIL');
        });
      },
    });

  test('answers behind the edge: security headers, request id and one completion line', async () => {
    const { app, logs } = built();
    const res = await request(app).get('/api/ok').expect(200);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toMatch(/\S/);
    expect(logs.filter((line) => line.msg === 'request completed' && line.path === '/api/ok')).toHaveLength(1);
  });

  test('an error thrown there is the 500 page with the digest of its one error line, no detail shown', async () => {
    const { app, logs } = built();
    const res = await request(app).get('/api/broken').expect(500);
    expect(res.text).not.toContain('SECRET-DETAIL');
    const [line, ...others] = errorLines(logs);
    expect(others).toHaveLength(0);
    expect(typeof line?.digest).toBe('string');
    expect(res.text).toContain(String(line?.digest));
  });

  test('malformed requests are refused before it runs', async () => {
    const { app } = built();
    await request(app).get('/api/%E0%A4%A').expect(400);
  });

  test('an address neither it nor a page answers is the 404 page', async () => {
    const { app } = built();
    await request(app).get('/api/missing').expect(404);
  });
});
