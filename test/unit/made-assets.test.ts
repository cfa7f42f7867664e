import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterEach, describe, expect, test } from 'vitest';
import { createStaticAssets } from '../../server/static/static-assets.ts';
import { closeTestServers, getRaw, listenForTest } from '../support/http-client.ts';

/**
 * Files the server makes at start (the route table's module) are served under /assets/ as the
 * built ones are: a compressed copy only where compression made the file smaller, and never a
 * second answer for a URL the build already has.
 */

const folders: string[] = [];
afterEach(async () => {
  await closeTestServers();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function builtFolder(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'made-assets-'));
  folders.push(folder);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return folder;
}

async function serve(made: { url: string; body: Buffer }[]): Promise<string> {
  const app = express();
  app.use(createStaticAssets(builtFolder({}), '/assets/', made));
  return (await listenForTest(app)).origin;
}

describe('a file the server makes', () => {
  test('that compression cannot shrink is sent as it is, whatever the client accepts', async () => {
    const origin = await serve([{ url: '/assets/tiny.js', body: Buffer.from('0') }]);
    for (const encoding of ['br', 'gzip', 'br, gzip']) {
      const res = await getRaw(`${origin}/assets/tiny.js`, encoding);
      expect(res.encoding, encoding).toBeUndefined();
      expect(res.body.toString()).toBe('0');
    }
  });

  test('that compression shrinks is sent compressed where asked, as it is otherwise', async () => {
    const text = `export default ${JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ source: `^/page-${i}$`, flags: 'i' })))};\n`;
    const origin = await serve([{ url: '/assets/routes-0123456789ab.js', body: Buffer.from(text) }]);
    expect((await getRaw(`${origin}/assets/routes-0123456789ab.js`, 'br')).encoding).toBe('br');
    expect((await getRaw(`${origin}/assets/routes-0123456789ab.js`, 'gzip')).encoding).toBe('gzip');
    const plain = await getRaw(`${origin}/assets/routes-0123456789ab.js`, 'identity');
    expect(plain.encoding).toBeUndefined();
    expect(plain.body.toString()).toBe(text);
  });

  test('stops the start when it would answer for a built file, outside /assets/, or of an unknown type', () => {
    const folder = builtFolder({ 'app.js': 'built' });
    for (const url of ['/assets/app.js', '/elsewhere/x.js', '/assets/x.exe']) {
      expect(() => createStaticAssets(folder, '/assets/', [{ url, body: Buffer.from('made') }]), url).toThrow(url);
    }
  });
});
