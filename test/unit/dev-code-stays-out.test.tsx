import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildClient, clientBuildOptions, findPageEntries } from '../../scripts/build-client.ts';
import { devModules } from '../../scripts/dev/dev-modules.ts';
import { defineRoute } from '../../shared/api/route-definition.ts';
import { buildApp } from '../support/build-app.ts';

/** The dev-loop fixture app: components with state, a component module, a stylesheet. */
const DEV_APP = join(import.meta.dirname, '..', 'support', 'dev-app');
/** What Fast Refresh puts in a bundle: the registrations, the runtime, the page's hot registry. */
const REFRESH_CODE = /\$RefreshReg\$|\$RefreshSig\$|react-refresh|performReactRefresh|injectIntoGlobalHook|__reactStreamShellHot/;

async function scriptsOf(outDir: string): Promise<string> {
  const assets = join(outDir, 'assets');
  const files = (await readdir(assets)).filter((name) => name.endsWith('.js'));
  return (await Promise.all(files.map((name) => readFile(join(assets, name), 'utf8')))).join('\n');
}

describe('Fast Refresh stays in development', () => {
  let production: string;
  let development: string;
  const dirs: string[] = [];
  beforeAll(async () => {
    const [productionDir, developmentDir] = [await mkdtemp(join(tmpdir(), 'prod-client-')), await mkdtemp(join(tmpdir(), 'dev-client-'))];
    dirs.push(productionDir, developmentDir);
    const routesModule = join(DEV_APP, 'app', 'routes.ts');
    await buildClient({ routesModule, outDir: productionDir, mode: 'production' });
    // The dev command's client build of the same app, for contrast: the check finds what it looks for.
    const entries = await findPageEntries(routesModule);
    await esbuild.build({ ...clientBuildOptions(entries, { outDir: developmentDir, mode: 'development', dev: devModules(DEV_APP) }), logLevel: 'silent' });
    [production, development] = await Promise.all([scriptsOf(productionDir), scriptsOf(developmentDir)]);
  });
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  test('the production client build holds no refresh code; the dev build of the same app does', () => {
    expect(production).toContain('Clicked');
    // The first match alone, rather than megabytes of bundle, when it fails.
    expect(REFRESH_CODE.exec(production)?.[0]).toBeUndefined();
    expect(development).toContain('$RefreshReg$(');
    expect(development).toContain('app/pages/label.tsx');
    expect(development).toMatch(/injectIntoGlobalHook/);
  });
});

describe('the dev client (overlay, Fast Refresh) is never on a production page', () => {
  const routes = [defineRoute({ path: '/', component: () => <h1>Home</h1> })];
  const liveReloadUrl = new URL('http://localhost:35729/events');

  test('a production app given the dev URL still serves no dev client', async () => {
    const { app } = buildApp(routes, { liveReloadUrl, development: false });
    const page = await request(app).get('/').expect(200);
    expect(page.text).not.toContain('dev-client.js');
    expect(page.headers['content-security-policy']).not.toContain('localhost:35729');
  });

  test('a development app imports it from the dev command, in a script under the page nonce', async () => {
    const { app } = buildApp(routes, { liveReloadUrl, development: true });
    const page = await request(app).get('/').expect(200);
    const nonce = /'nonce-([^']+)'/.exec(String(page.headers['content-security-policy']))?.[1];
    expect(nonce).toBeDefined();
    expect(page.text).toContain(`<script nonce="${nonce}">import("http://localhost:35729/dev-client.js");</script>`);
  });
});
