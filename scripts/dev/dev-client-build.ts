import * as esbuild from 'esbuild';

/** The page's dev client (client/dev/dev-client.ts) as one module, built once as the dev command starts. */
export async function buildDevClient(entry: string): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    write: false,
    outfile: 'dev-client.js',
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}
