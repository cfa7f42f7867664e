import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { defineApp } from '../../server/app-definition.ts';
import { ConfigError, readSecret } from '../../server/config.ts';
import { createTestApp } from '../../server/testing/test-app.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';

/** An app whose settings read a secret and a plain value, as an app's own settings do. */
const fixture = defineApp({
  routes: [
    defineRoute({ path: '/', component: ({ data }: { data: { admins: string } }) => <p>admins: {data.admins}</p>, load: ({ context }) => ({ admins: context.admins ?? 'unset' }) }),
  ],
  settings: (env) => ({ key: readSecret(env, 'FIXTURE_KEY'), admins: env.FIXTURE_ADMINS ?? 'none' }),
  getLoadContext: (_args, { admins }) => ({ admins }),
});

declare module '../../shared/api/route-definition.ts' {
  interface AppLoadContext {
    readonly admins?: string;
  }
}

describe("createTestApp reads the app's settings from env over NODE_ENV=test", () => {
  test("an env that names only the app's own values is read as a test: the secret is made, the values are given", async () => {
    const { app } = createTestApp(fixture, { env: { FIXTURE_ADMINS: 'Grace' } });
    expect((await request(app).get('/').expect(200)).text).toContain('admins: <!-- -->Grace');
  });

  test('with no env, the defaults; with NODE_ENV given, that environment, whose missing secret stops the app', async () => {
    const { app } = createTestApp(fixture);
    expect((await request(app).get('/').expect(200)).text).toContain('admins: <!-- -->none');
    expect(() => createTestApp(fixture, { env: { NODE_ENV: 'production', FIXTURE_ADMINS: 'Grace' } })).toThrow(ConfigError);
  });
});
