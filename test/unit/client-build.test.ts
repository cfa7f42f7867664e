import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildClient } from '../../scripts/build-client.ts';
import type { PageAssets } from '../../server/render/client-assets.ts';
import { loadClientAssets } from '../../server/render/client-assets.ts';

const CLIENT_PAGES = join(import.meta.dirname, '..', 'support', 'client-pages');

describe('the client build', () => {
  let outDir: string;
  let pages: Record<string, PageAssets>;

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'client-build-'));
    pages = await buildClient({ routesModule: join(CLIENT_PAGES, 'routes.ts'), outDir, mode: 'production' });
  });
  afterAll(() => rm(outDir, { recursive: true, force: true }));

  async function contents(url: string): Promise<string> {
    return readFile(join(outDir, 'assets', url.replace('/assets/', '')), 'utf8');
  }

  async function pageCode(page: PageAssets): Promise<string> {
    const files = await Promise.all([page.script, ...page.preloads].map(contents));
    return files.join('\n');
  }

  test('makes one content-hashed entry per page module the route table names, and none for server-only routes', async () => {
    expect(Object.keys(pages).sort()).toEqual(['/alpha', '/alpha/again', '/beta']);
    expect(pages['/alpha']?.script).toMatch(/^\/assets\/alpha-[A-Z0-9]{8}\.js$/);
    expect(pages['/alpha/again']).toEqual(pages['/alpha']);
    expect(pages['/beta']?.script).toMatch(/^\/assets\/beta-[A-Z0-9]{8}\.js$/);
  });

  test("ships a page's component, never its load or what load imports", async () => {
    const alpha = pages['/alpha'];
    if (alpha === undefined) throw new Error('page missing');
    const code = await pageCode(alpha);
    expect(code).toContain('ALPHA-ONLY-MARKER');
    expect(code).not.toContain('SERVER-ONLY-MARKER');
  });

  test('refuses a route whose page is not a module of the project, naming the route', async () => {
    const refused = await mkdtemp(join(tmpdir(), 'client-build-refused-'));
    try {
      await expect(buildClient({ routesModule: join(CLIENT_PAGES, 'unbuildable-routes.ts'), outDir: refused, mode: 'production' })).rejects.toThrow(
        /Route \/inline: its page is not a module of this project/,
      );
    } finally {
      await rm(refused, { recursive: true, force: true });
    }
  });

  test('puts React in a shared chunk that both pages preload', async () => {
    const { '/alpha': alpha, '/beta': beta } = pages;
    if (alpha === undefined || beta === undefined) throw new Error('pages missing');
    expect(alpha.preloads.length).toBeGreaterThan(0);
    expect(alpha.preloads).toEqual(beta.preloads);
    const shared = await Promise.all(alpha.preloads.map(contents));
    expect(shared.join('')).toContain('hydrateRoot');
  });

  test('gives each page only its own code', async () => {
    const { '/alpha': alpha, '/beta': beta } = pages;
    if (alpha === undefined || beta === undefined) throw new Error('pages missing');
    const [alphaCode, betaCode] = await Promise.all([pageCode(alpha), pageCode(beta)]);
    expect(alphaCode).toContain('ALPHA-ONLY-MARKER');
    expect(alphaCode).not.toContain('BETA-ONLY-MARKER');
    expect(betaCode).toContain('BETA-ONLY-MARKER');
    expect(betaCode).not.toContain('ALPHA-ONLY-MARKER');
  });

  test('builds production React with no development warnings', async () => {
    const files = await readdir(join(outDir, 'assets'));
    const all = (await Promise.all(files.map((file) => readFile(join(outDir, 'assets', file), 'utf8')))).join('');
    expect(all).not.toContain('process.env.NODE_ENV');
    expect(all).not.toContain('Warning: ');
  });

  test('writes a manifest the server reads', () => {
    const assets = loadClientAssets(outDir);
    expect(assets.dir).toBe(join(outDir, 'assets'));
    expect(assets.routes.get('/alpha')).toEqual(pages['/alpha']);
  });
});
