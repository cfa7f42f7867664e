import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { DevServer } from '../../scripts/dev/dev-server.ts';
import { createHotUpdates } from '../../scripts/dev/hot-updates.ts';

/**
 * The dev command's choice after a save (scripts/dev/hot-updates.ts), on a project of one
 * component, with a stand-in for the pages' side server that keeps what it was sent.
 */
const projects: string[] = [];
afterEach(async () => {
  await Promise.all(projects.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function projectWith(source: string) {
  // Under the repository's git-ignored dist/, so the module's import of React's JSX runtime resolves.
  await mkdir(join(import.meta.dirname, '..', '..', 'dist'), { recursive: true });
  const project = await mkdtemp(join(import.meta.dirname, '..', '..', 'dist', 'hot-updates-'));
  projects.push(project);
  await mkdir(join(project, 'app'));
  const file = join(project, 'app', 'label.tsx');
  await writeFile(file, source);
  const sent: string[] = [];
  const server = {
    hot: ({ modules }: { modules: { url: string }[] }) => sent.push(...modules.map(({ url }) => url)),
    host: (_name: string, code: string) => code,
  } as unknown as DevServer;
  const updates = createHotUpdates({ project, server, buildOptions: () => ({ jsx: 'automatic', logLevel: 'silent' }), routeModules: () => new Set(), say: () => undefined });
  updates.clientBuilt({ inputs: { 'app/label.tsx': { bytes: source.length, imports: [] } }, outputs: {} });
  return { file, updates, sent };
}

const LABEL = (word: string) => `export function Label() {\n  return <span>${word}</span>;\n}\n`;

test('a save noticed while its file is truncated and not yet written sends the module as written, not an empty one', async () => {
  const { file, updates, sent } = await projectWith(LABEL('Clicked'));
  // What the pages run, remembered in the background after the build.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await truncate(file, 0);
  const decided = updates.saved([file]);
  setTimeout(() => void writeFile(file, LABEL('Pressed')), 30);
  expect(await decided).toEqual({ kind: 'nothing' });
  expect(sent).toHaveLength(1);
  expect(sent[0]).toContain('Pressed');
});
